import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestLog } from '../../tests/fakes/worker/marketServer';
import { getExpirationDates, INVALID_DATE_FORMAT, parseExpirationDates, waitForExpiration, waitForSymbols } from './waiting';

describe('waiting helpers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for symbols, polling every 100 ms', async () => {
    const known = new Set(['A']);
    let polls = 0;
    const wait = waitForSymbols((symbol) => (polls++, known.has(symbol)), ['A', 'B']);
    await vi.advanceTimersByTimeAsync(300);
    known.add('B');
    const before = polls;
    await vi.advanceTimersByTimeAsync(100);
    await expect(wait).resolves.toBeUndefined();
    expect(polls).toBeGreaterThan(before);
  });

  it("rejects after 5000 ms with 'Timeout: Symbols not ready within 5000ms', and logs it", async () => {
    const log = createTestLog();
    const wait = waitForSymbols(() => false, ['A'], undefined, undefined, log);
    const outcome = wait.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(4900);
    let settled = false;
    void outcome.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(log.lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(await outcome).toBe('Timeout: Symbols not ready within 5000ms');
    expect(log.lines).toEqual(['Timeout: Symbols not ready within 5000ms']);
  });

  it('takes another timeout into the message', async () => {
    const wait = waitForSymbols(() => false, ['A'], 250).catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(300);
    expect(await wait).toBe('Timeout: Symbols not ready within 250ms');
  });

  it('waits up to 15000 ms for an expiration, then returns nothing and warns', async () => {
    const log = createTestLog();
    const wait = waitForExpiration(() => undefined, 'DLR/DIC26', { log });
    await vi.advanceTimersByTimeAsync(14_900);
    expect(log.lines).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(100);
    await expect(wait).resolves.toBeUndefined();
    expect(log.lines).toEqual(['Timeout: Expiration of DLR/DIC26 not ready within 15000ms']);
  });

  it('returns the expiration as soon as it is known', async () => {
    let expiration: Date | undefined = undefined;
    const wait = waitForExpiration(() => expiration, 'DLR/DIC26');
    await vi.advanceTimersByTimeAsync(1000);
    expiration = new Date(Date.UTC(2026, 11, 31));
    await vi.advanceTimersByTimeAsync(100);
    await expect(wait).resolves.toEqual(expiration);
  });
});

describe('expiration date lists', () => {
  it('parses YYYYMMDD and YYYY-MM-DD, and refuses anything else', () => {
    expect(parseExpirationDates(['20261231', '2027-01-29'])).toEqual([new Date(Date.UTC(2026, 11, 31)), new Date(Date.UTC(2027, 0, 29))]);
    expect(() => parseExpirationDates(['20261231', '31/12/2026'])).toThrow(INVALID_DATE_FORMAT);
    expect(() => parseExpirationDates(['20260231'])).toThrow(INVALID_DATE_FORMAT);
  });

  it('gives null for a contract that fails, logging why', async () => {
    const log = createTestLog();
    const dates = await getExpirationDates(
      ['DLR/DIC26', 'BYMA:AL30'],
      async (symbol) => {
        if (symbol === 'BYMA:AL30') throw new Error('BYMA:AL30 no tiene vencimiento');
        return '20261231';
      },
      log,
    );
    expect(dates).toEqual([new Date(Date.UTC(2026, 11, 31)), null]);
    expect(log.lines).toEqual(['Error retrieving expiration for symbol: BYMA:AL30, BYMA:AL30 no tiene vencimiento']);
  });

  it('logs a list with an unparsable date as a failure and answers nulls', async () => {
    const log = createTestLog();
    const dates = await getExpirationDates(['A', 'B'], async (symbol) => (symbol === 'A' ? '20261231' : 'soon'), log);
    expect(dates).toEqual([null, null]);
    expect(log.lines).toEqual([`Failed to retrieve expiration dates: ${INVALID_DATE_FORMAT}`]);
  });
});
