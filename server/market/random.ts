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

/** A 32-bit mix of three integers (murmur3's finalizer), to seed one minute's or one day's generator without text. */
export function mix(a: number, b: number, c: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * seededRandom as an object that can be seeded again: hot loops (a minute of ten years of
 * sessions) draw from one generator instead of making a closure per minute.
 */
export class Generator {
  private state = 0;
  private spare: number | null = null;

  constructor(seed = 0) {
    this.reseed(seed);
  }

  reseed(seed: number): this {
    this.state = seed >>> 0;
    this.spare = null;
    return this;
  }

  /** Uniform in [0, 1): mulberry32, as seededRandom. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /**
   * About normal, cheaply: the sum of four uniforms, centred and scaled to variance 1
   * (Irwin–Hall). For the many small steps of a bridge, where the tails do not matter and a
   * logarithm and two trigonometric calls per pair do.
   */
  roughNormal(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * Math.SQRT2 * 1.224744871391589;
  }

  /** Standard normal (Box–Muller, the pair's second kept for the next call). */
  normal(): number {
    if (this.spare != null) {
      const value = this.spare;
      this.spare = null;
      return value;
    }
    const radius = Math.sqrt(-2 * Math.log(Math.max(this.next(), 1e-12)));
    const angle = 2 * Math.PI * this.next();
    this.spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  }
}
