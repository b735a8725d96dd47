// Seeded randomness for the simulator: the same seed gives the same market.

/** mulberry32: a small, fast, well-distributed 32-bit generator. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash of a text (FNV-1a), to seed per-symbol series. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Standard normal draw (Box–Muller). */
export function normal(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export function roundToTick(price: number, tick: number): number {
  const steps = Math.round(price / tick);
  const decimals = Math.max(0, Math.ceil(-Math.log10(tick) - 1e-9));
  return Number((steps * tick).toFixed(decimals));
}
