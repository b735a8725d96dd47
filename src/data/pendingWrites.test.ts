import { describe, expect, it } from 'vitest';
import { flushPendingWrites, pendingWriteCount, trackWrite } from './pendingWrites';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('pending writes', () => {
  it('flush waits for every tracked write, those started meanwhile and failed ones included', async () => {
    const first = deferred();
    const second = deferred();
    const later = deferred();
    trackWrite(first.promise);
    trackWrite(second.promise).catch(() => {});
    let flushed = false;
    const flush = flushPendingWrites().then(() => (flushed = true));
    first.resolve();
    // A write started while the flush waits (a blur committing an edit) is waited for too.
    trackWrite(later.promise);
    second.reject(new Error('quota'));
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(flushed).toBe(false);
    later.resolve();
    await flush;
    expect(flushed).toBe(true);
    expect(pendingWriteCount()).toBe(0);
  });

  it('answers the write itself', async () => {
    await expect(trackWrite(Promise.resolve(7))).resolves.toBe(7);
    await flushPendingWrites();
  });
});
