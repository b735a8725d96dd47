// The feed lock on a real Redis, with commands that fail as they do across a cut connection:
// a take that times out on this side but still reaches Redis, and renewals that fail. Two
// locks on one key stand for two processes. Runs when TEST_REDIS_URL is set.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFeedLock, type FeedLockOptions } from '../../server/market/feedLock.js';
import { pollUntil } from './helpers.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Feed lock tests skipped: TEST_REDIS_URL is not set');

describe.runIf(redisUrl)('feed lock', () => {
  const redis = redisUrl ? new Redis(redisUrl, { lazyConnect: true }) : null;
  const locks: Array<ReturnType<typeof createFeedLock>> = [];
  afterEach(async () => {
    await Promise.all(locks.splice(0).map((lock) => lock.release()));
  });
  afterAll(() => redis?.disconnect());

  /** A lock on `key` named `owner`, its events appended to `events` (`<owner> acquire|lose`). */
  function lock(key: string, owner: string, events: string[], options: Partial<FeedLockOptions> = {}) {
    const made = createFeedLock({
      redis: redis!,
      key,
      owner,
      ttlMs: 60_000,
      askEveryMs: 20,
      onAcquire: () => events.push(`${owner} acquire`),
      onLose: () => events.push(`${owner} lose`),
      onError: () => {},
      ...options,
    });
    locks.push(made);
    return made;
  }
  /** A Redis whose commands go through `through`, which may run them (`run`) or fail them as a cut connection does. */
  const redisThrough = (through: (run: () => Promise<unknown>) => Promise<unknown>): Pick<Redis, 'eval'> => ({
    eval: ((...args: Parameters<Redis['eval']>) => through(() => redis!.eval(...args))) as Redis['eval'],
  });
  const newKey = () => `visores-feedlock-test-${randomBytes(4).toString('hex')}`;

  it('is held by one of two processes, and taken by the other when released', async () => {
    const key = newKey();
    const events: string[] = [];
    const first = lock(key, 'a', events);
    await pollUntil('the first lock held', () => first.held || null);
    const second = lock(key, 'b', events);
    // The second asks several times and never gets it while the first holds it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(second.held).toBe(false);
    await first.release();
    await pollUntil('the second lock held', () => second.held || null);
    expect(events).toEqual(['a acquire', 'a lose', 'b acquire']);
  });

  it('finds the lock its own when a take timed out here but reached Redis', async () => {
    const key = newKey();
    const events: string[] = [];
    const errors: Error[] = [];
    let first = true;
    const late = redisThrough(async (run) => {
      if (!first) return run();
      first = false;
      // As a cut connection's queue does: the command is carried out, its answer lost.
      await run();
      throw new Error('Command timed out');
    });
    // A minute's lifetime: waiting for the lock to lapse would not get it within the poll.
    const held = lock(key, 'a', events, { redis: late, onError: (error) => void errors.push(error) });
    await pollUntil('the lock found its own', () => held.held || null);
    expect(await redis!.get(key)).toBe('a');
    expect(errors.map((error) => error.message)).toEqual(['Command timed out']);
    expect(events).toEqual(['a acquire']);
  });

  it('keeps the feed of a holder that cannot reach Redis, and stops it at the first answer if another process took the lock', async () => {
    const key = newKey();
    const events: string[] = [];
    const errors: Error[] = [];
    let cut = false;
    const cutOff = redisThrough((run) => (cut ? Promise.reject(new Error('Connection is closed.')) : run()));
    const holder = lock(key, 'a', events, { redis: cutOff, ttlMs: 600, onError: (error) => void errors.push(error) });
    await pollUntil('the lock held', () => holder.held || null);
    cut = true;
    // Its lock lapses unrenewed and another process takes it; the holder, cut off, keeps its
    // feed for its own clients meanwhile.
    const other = lock(key, 'b', events, { ttlMs: 600 });
    await pollUntil('the other process holding the lock', () => other.held || null);
    await pollUntil('a renewal failed', () => (errors.length > 0 ? true : null));
    expect(holder.held).toBe(true);
    cut = false;
    await pollUntil('the holder giving its feed up', () => (holder.held ? null : true));
    expect(events).toEqual(['a acquire', 'b acquire', 'a lose']);
  });
});
