import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRefusalHold } from './refusalHold.js';

describe('the pause before a 429', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Whether each promise has settled, read after the microtasks queued so far have run. */
  async function settled(promises: Promise<void>[]): Promise<boolean[]> {
    const done = promises.map(() => false);
    promises.forEach((promise, index) => void promise.then(() => (done[index] = true)));
    await vi.advanceTimersByTimeAsync(0);
    return done;
  }

  it('holds an answer for the pause, never longer than its Retry-After', async () => {
    const hold = createRefusalHold(1000);
    const long = hold.hold(5);
    const short = hold.hold(0.25);
    expect(await settled([long, short])).toEqual([false, false]);
    expect(hold.held()).toBe(2);
    await vi.advanceTimersByTimeAsync(250);
    expect(await settled([long, short])).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(750);
    expect(await settled([long, short])).toEqual([true, true]);
    expect(hold.held()).toBe(0);
  });

  it('answers at once past the answers it may hold, and holds again once one is out', async () => {
    const hold = createRefusalHold(1000, 2);
    const first = [hold.hold(1), hold.hold(1)];
    const third = hold.hold(1);
    expect(await settled([...first, third])).toEqual([false, false, true]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(hold.held()).toBe(0);
    const again = hold.hold(1);
    expect(await settled([again])).toEqual([false]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled([again])).toEqual([true]);
  });

  it('holds nothing with a pause of 0', async () => {
    const hold = createRefusalHold(0);
    expect(await settled([hold.hold(3)])).toEqual([true]);
  });
});
