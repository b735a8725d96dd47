import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VisoresDb } from '../shared/db';
import { createQuoteCache, QUOTE_CACHE_FIRST_WRITE_MS } from './quoteCache';

describe('quote cache', () => {
  const databases: VisoresDb[] = [];
  afterEach(async () => {
    for (const db of databases.splice(0)) await db.delete();
  });

  it('writes the last quote of each symbol in one bulk write per flush', async () => {
    const db = new VisoresDb(`quotes-${Math.random()}`);
    databases.push(db);
    const bulkPut = vi.spyOn(db.quotes, 'bulkPut');
    const cache = createQuoteCache({ table: db.quotes, now: () => 1234 });
    cache.record('DLR/DIC26', { md: { OP: 1 }, expiration: new Date(Date.UTC(2026, 11, 31)) });
    cache.record('DLR/DIC26', { md: { OP: 2 }, expiration: new Date(Date.UTC(2026, 11, 31)) });
    cache.record('BYMA:AL30', { md: { OP: 3 } });
    await cache.flush();
    expect(bulkPut).toHaveBeenCalledTimes(1);
    expect(await db.quotes.toArray()).toEqual([
      { symbol: 'BYMA:AL30', md: { OP: 3 }, receivedAt: 1234 },
      { symbol: 'DLR/DIC26', md: { OP: 2 }, expiration: '20261231', receivedAt: 1234 },
    ]);
    await cache.flush();
    expect(bulkPut).toHaveBeenCalledTimes(1);
    cache.dispose();
  });

  it('clear forgets what waits and empties the table, so nothing of before comes back', async () => {
    const db = new VisoresDb(`quotes-${Math.random()}`);
    databases.push(db);
    const cache = createQuoteCache({ table: db.quotes, flushMs: 60_000 });
    cache.record('DLR/DIC26', { md: { OP: 1 } });
    await cache.flush();
    cache.record('BYMA:AL30', { md: { OP: 2 } });
    await cache.clear();
    expect(await db.quotes.count()).toBe(0);
    // What waited before the clear is gone: a flush now has nothing to write.
    await cache.flush();
    expect(await db.quotes.count()).toBe(0);
    cache.record('BYMA:AL30', { md: { OP: 3 } });
    await cache.flush();
    expect(await db.quotes.toArray()).toEqual([expect.objectContaining({ symbol: 'BYMA:AL30', md: { OP: 3 } })]);
    cache.dispose();
  });

  it("writes a symbol's first quote at once, and its later ones once per flush interval", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const puts: string[][] = [];
      const table = {
        bulkPut: async (records: readonly { symbol: string }[]) => void puts.push(records.map((record) => record.symbol)),
        clear: async () => {},
      };
      const cache = createQuoteCache({ table, flushMs: 1000 });
      cache.record('DLR/DIC26', { md: { OP: 1 } });
      await vi.advanceTimersByTimeAsync(QUOTE_CACHE_FIRST_WRITE_MS);
      expect(puts).toEqual([['DLR/DIC26']]);
      // Its next quote waits for the interval; a new symbol meanwhile is written at once.
      cache.record('DLR/DIC26', { md: { OP: 2 } });
      await vi.advanceTimersByTimeAsync(500);
      expect(puts).toHaveLength(1);
      cache.record('BYMA:AL30', { md: { OP: 3 } });
      await vi.advanceTimersByTimeAsync(QUOTE_CACHE_FIRST_WRITE_MS);
      expect(puts).toEqual([['DLR/DIC26'], ['DLR/DIC26', 'BYMA:AL30']]);
      cache.record('BYMA:AL30', { md: { OP: 4 } });
      await vi.advanceTimersByTimeAsync(999);
      expect(puts).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(puts).toEqual([['DLR/DIC26'], ['DLR/DIC26', 'BYMA:AL30'], ['BYMA:AL30']]);
      cache.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
