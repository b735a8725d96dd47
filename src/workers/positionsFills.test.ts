import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fill, PositionsSnapshot } from '../protocol/broker';
import { recordingLog } from '../../tests/fakes/worker/fakes';
import { createPositionsFills, FILL_RETRIES, quantitiesKey } from './positionsFills';
import { defaultTimers } from './socketTypes';

const ACCOUNT = 'DEMO-ANA';

function fill(n: number): Fill {
  return {
    orderId: `O${n}`,
    clOrdId: `C${n}`,
    execId: `E${n}`,
    accountId: { id: ACCOUNT },
    instrumentId: { marketId: 'ROFX', symbol: 'DLR/DIC26' },
    side: 'BUY',
    ordType: 'MARKET',
    timeInForce: 'DAY',
    price: 1500,
    orderQty: 1,
    lastPx: 1500,
    lastQty: 1,
    cumQty: 1,
    leavesQty: 0,
    avgPx: 1500,
    status: 'FILLED',
    transactTime: '20261122-13:11:04.214-0300',
    text: 'Operación simulada',
  };
}

function snapshot(buySize: number, etag = `e${buySize}`): PositionsSnapshot {
  return {
    account: ACCOUNT,
    broker: 'primary',
    as_of: new Date().toISOString(),
    etag,
    positions: [
      {
        instrument: { symbolReference: 'DLR/DIC26', settlType: 1 },
        symbol: 'DLR/DIC26',
        buySize,
        buyPrice: 1500,
        sellSize: 0,
        sellPrice: 0,
        totalDailyDiff: 0,
        totalDiff: 0,
        tradingSymbol: 'DLR/DIC26',
        originalBuyPrice: 1500,
        originalSellPrice: 0,
      },
    ],
  };
}

/** The server's side: what GET /fills answers next (null: 202 warming up), and the calls made. */
function setup() {
  const server = { fills: [] as Fill[] | null, reads: 0, watches: [] as string[], fail: false };
  const rest = {
    async watchFills(account: string, sessionId: string) {
      server.watches.push(`${account}/${sessionId}`);
    },
    async fills() {
      server.reads += 1;
      if (server.fail) throw new Error('getFills failed: 500');
      return server.fills == null ? null : [...server.fills];
    },
  };
  const log = recordingLog();
  const fills = createPositionsFills({ rest, log, timers: defaultTimers });
  const posted: Array<Fill[] | null> = [];
  fills.onFills((account, list) => account === ACCOUNT && posted.push(list));
  return { server, fills, log, posted };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('positions fills', () => {
  it('watches the fills once per watcher and reads them for the first', async () => {
    const { server, fills, posted } = setup();
    server.fills = [fill(1)];
    const first = await fills.watch(ACCOUNT, 's1');
    expect(first).toEqual({ ok: true, value: [fill(1)] });
    const second = await fills.watch(ACCOUNT, 's1');
    expect(second).toEqual({ ok: true, value: [fill(1)] });
    expect(server.watches).toEqual([`${ACCOUNT}/s1`, `${ACCOUNT}/s1`]);
    expect(server.reads).toBe(1);
    expect(fills.watcherCount(ACCOUNT)).toBe(2);
    expect(posted).toEqual([[fill(1)]]);

    fills.release(ACCOUNT);
    expect(fills.fills(ACCOUNT)).toEqual([fill(1)]);
    fills.release(ACCOUNT);
    expect(fills.fills(ACCOUNT)).toBeNull();
    expect(posted.at(-1)).toBeNull();
  });

  it('reads them again when a snapshot moves the quantities, not when only prices move', async () => {
    const { server, fills, posted } = setup();
    await fills.watch(ACCOUNT, 's1');
    fills.snapshot(ACCOUNT, snapshot(10, 'a'));
    fills.snapshot(ACCOUNT, snapshot(10, 'b'));
    await vi.runAllTimersAsync();
    expect(server.reads).toBe(1);

    server.fills = [fill(1)];
    fills.snapshot(ACCOUNT, snapshot(11));
    await vi.runAllTimersAsync();
    expect(server.reads).toBe(2);
    expect(posted.at(-1)).toEqual([fill(1)]);
  });

  it('reads again with backoff while the list has not grown after the quantities moved, then gives up', async () => {
    const { server, fills, posted } = setup();
    server.fills = [fill(1)];
    await fills.watch(ACCOUNT, 's1');
    fills.snapshot(ACCOUNT, snapshot(10));
    fills.snapshot(ACCOUNT, snapshot(11));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.reads).toBe(2);
    server.fills = [fill(1), fill(2)];
    await vi.advanceTimersByTimeAsync(500);
    expect(server.reads).toBe(3);
    expect(posted.at(-1)).toEqual([fill(1), fill(2)]);
    await vi.runAllTimersAsync();
    expect(server.reads).toBe(3);

    fills.snapshot(ACCOUNT, snapshot(12));
    await vi.runAllTimersAsync();
    expect(server.reads).toBe(4 + FILL_RETRIES);
  });

  it('reads again while the broker warms up (202), and logs a failed read', async () => {
    const { server, fills, log } = setup();
    server.fills = null;
    expect(await fills.watch(ACCOUNT, 's1')).toEqual({ ok: true, value: null });
    server.fills = [fill(1)];
    await vi.advanceTimersByTimeAsync(500);
    expect(fills.fills(ACCOUNT)).toEqual([fill(1)]);

    server.fail = true;
    fills.snapshot(ACCOUNT, snapshot(10));
    fills.snapshot(ACCOUNT, snapshot(11));
    await vi.runAllTimersAsync();
    expect(log.entries().some((entry) => entry.text.includes(`no se pudieron leer los fills de la cuenta ${ACCOUNT}: getFills failed: 500`))).toBe(true);
  });

  it('keys quantities by symbol, bought and sold, in any order', () => {
    const a = snapshot(10);
    const b = { ...a, positions: [...a.positions, { ...a.positions[0]!, symbol: 'GGAL', buySize: 100 }] };
    const c = { ...b, positions: [...b.positions].reverse() };
    expect(quantitiesKey(b)).toBe(quantitiesKey(c));
    expect(quantitiesKey(a)).not.toBe(quantitiesKey(b));
  });
});
