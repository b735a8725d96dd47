import { describe, expect, it } from 'vitest';
import { createUserTurns } from './userTurns.js';

const nextRound = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a user's requests taking turns", () => {
  it('runs perUser at once, lets the next in when one ends, and other users are not held', async () => {
    const turns = createUserTurns(2, 10);
    const first = (await turns.enter('a'))!;
    const second = (await turns.enter('a'))!;
    let thirdIn = false;
    const third = turns.enter('a').then((release) => {
      thirdIn = true;
      return release!;
    });
    const other = await turns.enter('b');
    expect(other).not.toBeNull();
    await nextRound();
    expect(thirdIn).toBe(false);
    expect(turns.stats('a')).toEqual({ running: 2, waiting: 1 });

    first();
    first(); // a second call of the same release changes nothing
    await nextRound();
    await nextRound();
    expect(thirdIn).toBe(true);
    expect(turns.stats('a')).toEqual({ running: 2, waiting: 0 });
    second();
    (await third)();
    expect(turns.stats('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('lets a waiting request in on a later round of the loop, not in the microtasks of the one that ended', async () => {
    const turns = createUserTurns(1, 10);
    const release = (await turns.enter('a'))!;
    let nextIn = false;
    const waiting = turns.enter('a').then(() => (nextIn = true));
    release();
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(nextIn).toBe(false);
    await waiting;
    expect(nextIn).toBe(true);
  });

  it('refuses past maxWaiting', async () => {
    const turns = createUserTurns(1, 2);
    await turns.enter('a');
    void turns.enter('a');
    void turns.enter('a');
    expect(await turns.enter('a')).toBeNull();
    expect(await turns.enter('b')).not.toBeNull();
  });
});
