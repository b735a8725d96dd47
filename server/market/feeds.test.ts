// The catalogue rolls with the calendar: on a new day expired contracts leave the list and the
// months that now fall within the curve join it, in the simulator and the hub too.
import { describe, expect, it } from 'vitest';
import { createFeeds } from './feeds.js';
import { createMarketHub } from './hub.js';

const simulator = { seed: 7, dlrRate: 0.3, spot: 1450, mep: 1480, ccl: 1510 };

describe('feeds over the days', () => {
  it('takes expired contracts off the list and lists the new month the next day', () => {
    // Monday 30 November 2026, the last business day of November: DLR/NOV26 still trades.
    let clock = Date.UTC(2026, 10, 30, 15);
    const hub = createMarketHub();
    const feeds = createFeeds({ hub, simulator, ticksPerSecond: 10, now: () => clock });
    const { catalogue } = feeds;
    const dollarFutures = () => catalogue.instruments.filter((i) => i.kind === 'future' && i.product === 'DLR').map((i) => i.instrumentId.symbol);
    expect(dollarFutures()[0]).toBe('DLR/NOV26');
    expect(dollarFutures()).toHaveLength(12);
    expect(catalogue.resolve('DLR/NOV27')).toBeNull();
    expect(catalogue.resolve('DLR/NOV26 1500 C')).not.toBeNull();
    const rofexBefore = feeds.status('rofex').instruments;
    feeds.startAll();
    const lastNov26 = hub.latest('DLR/NOV26');
    expect(lastNov26).not.toBeNull();

    // The same day: nothing changes.
    clock += 3_600_000;
    feeds.roll();
    expect(dollarFutures()[0]).toBe('DLR/NOV26');

    // Tuesday 1 December.
    clock = Date.UTC(2026, 11, 1, 15);
    feeds.roll();
    expect(dollarFutures()).toHaveLength(12);
    expect(dollarFutures()[0]).toBe('DLR/DIC26');
    expect(dollarFutures().at(-1)).toBe('DLR/NOV27');
    for (const gone of ['DLR/NOV26', 'ROFEX:DLR/NOV26', 'DLR/NOV26 1500 C', 'DLR/NOV26/DIC26', 'RFX20/NOV26', 'SOJ.ROS/NOV26'])
      expect(catalogue.resolve(gone), gone).toBeNull();
    expect(catalogue.resolve('ROFEX:DLR/NOV27')?.maturityDate).toBe('20271130');
    expect(catalogue.resolve('DLR/OCT27/NOV27')).not.toBeNull();
    // The new contracts trade from their first state, published at once; the expired no longer.
    expect(hub.latest('DLR/NOV27')?.LA?.price).toBeGreaterThan(hub.latest('DLR/DIC26')!.LA!.price);
    feeds.advance('rofex', 20_000);
    expect(hub.latest('DLR/NOV26')).toBe(lastNov26);
    expect(feeds.status('rofex').instruments).toBe(catalogue.instruments.filter((i) => i.feed === 'rofex').length);
    expect(Math.abs(feeds.status('rofex').instruments - rofexBefore)).toBeLessThan(rofexBefore / 10);
    feeds.stopAll();
  });

  it("rolls with the exchange's own listings in the catalogue: the simulator moves only its own contracts", () => {
    let clock = Date.UTC(2026, 10, 30, 15);
    const feeds = createFeeds({ hub: createMarketHub(), simulator, ticksPerSecond: 10, now: () => clock });
    // What the Primary API lists beside the built-in contracts: an option and a spread with no
    // model of the simulator's (no underlying, no legs).
    feeds.catalogue.addExchangeInstrument({ instrumentId: { marketId: 'ROFX', symbol: 'DLR/ENE27 1800 C' }, cficode: 'OCAFXS', maturityDate: '20270129' });
    feeds.catalogue.addExchangeInstrument({ instrumentId: { marketId: 'ROFX', symbol: 'DLR/ENE27/FEB27 X' }, cficode: 'FMXXXX', maturityDate: '20270129' });
    clock = Date.UTC(2026, 11, 1, 15);
    feeds.roll();
    expect(feeds.catalogue.resolve('DLR/ENE27 1800 C')).not.toBeNull();
    feeds.advance('rofex', 20_000);
    expect(feeds.status('rofex').instruments).toBe(feeds.catalogue.instruments.filter((i) => i.feed === 'rofex').length);
  });
});
