// Writes of the tab that must land before the page goes away on purpose (the update's reload,
// issue 21): a visor's pending draft is put in Dexie at once on every change
// (data/visorDrafts.ts), and a reload right after the change must not cut that put short.
// Writes register here; flushPendingWrites() waits for every one, including those started
// while it waits.
const pending = new Set<Promise<unknown>>();

/** Registers `write` until it settles; answers it unchanged. */
export function trackWrite<T>(write: Promise<T>): Promise<T> {
  pending.add(write);
  const forget = () => pending.delete(write);
  write.then(forget, forget);
  return write;
}

/** Settles when no registered write is left (failed ones count as done: they are reported where made). */
export async function flushPendingWrites(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

/** Writes in flight now (for tests). */
export function pendingWriteCount(): number {
  return pending.size;
}
