import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../lib/quote';
import type { TabMessage } from './api';
import { createSubscriptions } from './subscriptions';
import { createTickFanout, OFF_SCREEN_INTERVAL_MS, TICK_INTERVAL_MS } from './tickFanout';

describe('tick fan-out', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup() {
    const subscriptions = createSubscriptions();
    const quotes = new Map<string, Quote>();
    const received = new Map<string, TabMessage[]>();
    const portOf = (tabId: string) => ({
      postMessage: (message: TabMessage) => received.set(tabId, [...(received.get(tabId) ?? []), message]),
      close: () => {},
    });
    const fanout = createTickFanout({ tabsOf: subscriptions.tabsOf, portOf, quoteOf: (symbol) => quotes.get(symbol), now: () => Date.now() });
    const tick = (symbol: string, price: number) => {
      quotes.set(symbol, { md: { LA: { price, size: 1, date: price } } });
      fanout.changed([symbol]);
    };
    const lastPrices = (tabId: string) =>
      (received.get(tabId) ?? []).map((message) =>
        message.type === 'ticks' ? Object.fromEntries(Object.entries(message.quotes).map(([symbol, quote]) => [symbol, quote.md.LA!.price])) : message,
      );
    return { subscriptions, fanout, tick, received, lastPrices };
  }

  it('posts each tab one batch per interval with only its symbols, latest state per symbol', async () => {
    const { subscriptions, tick, lastPrices } = setup();
    subscriptions.want('t1', ['A', 'B']);
    subscriptions.want('t2', ['B', 'C']);
    for (let price = 1; price <= 20; price++) {
      tick('A', price);
      tick('B', price * 10);
    }
    tick('C', 7);
    tick('Z', 1);
    await vi.advanceTimersByTimeAsync(TICK_INTERVAL_MS - 1);
    expect(lastPrices('t1')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(lastPrices('t1')).toEqual([{ A: 20, B: 200 }]);
    expect(lastPrices('t2')).toEqual([{ B: 200, C: 7 }]);
  });

  it('sends nothing to a tab none of whose symbols changed, and no timer runs when idle', async () => {
    const { subscriptions, tick, lastPrices } = setup();
    subscriptions.want('t1', ['A']);
    subscriptions.want('t2', ['B']);
    tick('A', 1);
    await vi.advanceTimersByTimeAsync(100);
    expect(lastPrices('t1')).toHaveLength(1);
    expect(lastPrices('t2')).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('seeds a tab that just subscribed with what is known', async () => {
    const { subscriptions, fanout, tick, lastPrices } = setup();
    subscriptions.want('t1', ['A']);
    tick('A', 5);
    fanout.flush();
    subscriptions.want('t2', ['A']);
    fanout.seed('t2', ['A', 'unknown']);
    await vi.advanceTimersByTimeAsync(TICK_INTERVAL_MS);
    expect(lastPrices('t1')).toEqual([{ A: 5 }]);
    expect(lastPrices('t2')).toEqual([{ A: 5 }]);
  });

  it('sends a tab nothing more until it painted its last batch, then the latest state of all that changed meanwhile', async () => {
    const { subscriptions, fanout, tick, lastPrices } = setup();
    subscriptions.want('t1', ['A', 'B']);
    subscriptions.want('t2', ['A']);
    tick('A', 1);
    await vi.advanceTimersByTimeAsync(TICK_INTERVAL_MS);
    expect(lastPrices('t1')).toEqual([{ A: 1 }]);
    fanout.painted('t2');
    for (let price = 2; price <= 30; price++) {
      tick('A', price);
      tick('B', price * 10);
      await vi.advanceTimersByTimeAsync(TICK_INTERVAL_MS);
    }
    // t1 did not paint: one batch only. t2 painted once: one more batch, then it waits too.
    expect(lastPrices('t1')).toEqual([{ A: 1 }]);
    expect(lastPrices('t2')).toEqual([{ A: 1 }, { A: 2 }]);
    fanout.painted('t1');
    expect(lastPrices('t1')).toEqual([{ A: 1 }, { A: 30, B: 300 }]);
    // A second reply for the same batch changes nothing.
    fanout.painted('t1');
    await vi.advanceTimersByTimeAsync(100);
    expect(lastPrices('t1')).toHaveLength(2);
  });

  it('leaves out symbols the tab let go of while it waited, and forgets a tab that is gone', async () => {
    const { subscriptions, fanout, tick, lastPrices } = setup();
    subscriptions.want('t1', ['A', 'B']);
    tick('A', 1);
    fanout.flush();
    tick('A', 2);
    tick('B', 2);
    fanout.flush();
    subscriptions.release('t1', ['B']);
    fanout.painted('t1');
    expect(lastPrices('t1')).toEqual([{ A: 1 }, { A: 2 }]);

    // Registered again under the same id: not in flight any more.
    fanout.forget('t1');
    tick('A', 3);
    fanout.flush();
    expect(lastPrices('t1')).toEqual([{ A: 1 }, { A: 2 }, { A: 3 }]);
  });

  it('sends a tab the symbols it shows only off screen at most every OFF_SCREEN_INTERVAL_MS, latest state, and a symbol back in view at once', async () => {
    const { subscriptions, fanout, tick, lastPrices } = setup();
    subscriptions.want('t1', ['A', 'B']);
    subscriptions.want('t2', ['B']);
    fanout.offScreen('t1', ['B']);
    const batches = () => lastPrices('t1').length;
    for (let price = 1; price <= 60; price++) {
      tick('A', price);
      tick('B', price);
      await vi.advanceTimersByTimeAsync(TICK_INTERVAL_MS);
      fanout.painted('t1');
      fanout.painted('t2');
    }
    const sent = lastPrices('t1') as Record<string, number>[];
    // A, in view, went every batch; B, off screen for t1, went about every OFF_SCREEN_INTERVAL_MS.
    expect(sent.filter((batch) => 'A' in batch)).toHaveLength(60);
    const withB = sent.filter((batch) => 'B' in batch);
    const elapsed = 60 * TICK_INTERVAL_MS;
    expect(withB.length).toBeGreaterThanOrEqual(Math.floor(elapsed / OFF_SCREEN_INTERVAL_MS));
    expect(withB.length).toBeLessThanOrEqual(Math.ceil(elapsed / OFF_SCREEN_INTERVAL_MS));
    // Each time with its latest state; t2, which shows B on screen, got every B.
    expect(withB.every((batch) => batch.B === batch.A)).toBe(true);
    expect((lastPrices('t2') as Record<string, number>[]).filter((batch) => 'B' in batch)).toHaveLength(60);

    // Nothing else changes: the waiting off-screen state still arrives, on its turn.
    const before = batches();
    tick('B', 100);
    await vi.advanceTimersByTimeAsync(OFF_SCREEN_INTERVAL_MS + TICK_INTERVAL_MS);
    expect(lastPrices('t1').slice(before)).toEqual([{ B: 100 }]);
    fanout.painted('t1');

    // B back in view: its change leaves with the next batch, not on the off-screen turn.
    tick('B', 101);
    await vi.advanceTimersByTimeAsync(TICK_INTERVAL_MS);
    const waited = batches();
    fanout.offScreen('t1', []);
    await vi.advanceTimersByTimeAsync(TICK_INTERVAL_MS);
    expect(lastPrices('t1').slice(waited)).toEqual([{ B: 101 }]);
  });
});
