// Holders counted per key (an account's positions or fills, held by tabs and sections): the
// first holder and the last release are the moments something starts or stops. Pure.
export interface RefCounts<K> {
  /** One more holder; true when it is the first. */
  add(key: K): boolean;
  /** One holder fewer; true when it was the last (false too when the key had none). */
  release(key: K): boolean;
  has(key: K): boolean;
  count(key: K): number;
  keys(): IterableIterator<K>;
}

export function createRefCounts<K>(): RefCounts<K> {
  const counts = new Map<K, number>();
  return {
    add(key) {
      const count = counts.get(key) ?? 0;
      counts.set(key, count + 1);
      return count === 0;
    },
    release(key) {
      const count = counts.get(key);
      if (count == null) return false;
      if (count > 1) {
        counts.set(key, count - 1);
        return false;
      }
      counts.delete(key);
      return true;
    },
    has: (key) => counts.has(key),
    count: (key) => counts.get(key) ?? 0,
    keys: () => counts.keys(),
  };
}
