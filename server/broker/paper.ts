// The built-in paper broker: every user gets a demo account whose positions are valued at
// the simulated market and which fills a small order now and then at market prices.
import { marketIsoString } from '../../src/lib/marketTime.js';
import type { Fill, Position, PositionsSnapshot } from '../../src/protocol/broker.js';
import type { Catalogue, Instrument } from '../market/catalogue.js';
import { hashText, roundToTick, seededRandom } from '../market/random.js';
import { snapshotOf } from './source.js';

export interface PriceSource {
  /** Last traded price of an instrument (exchange form). */
  last(symbol: string): number | null;
  /** Previous close, for the daily difference. */
  previousClose(symbol: string): number | null;
  /** Whether the instrument's market trades now (not closed outside its session). */
  trading(instrument: Instrument): boolean;
}

interface Holding {
  instrument: Instrument;
  buySize: number;
  buyPrice: number;
  sellSize: number;
  sellPrice: number;
}

/** Primary's settlType: 0 = CI, 1 = 24hs; futures settle as 24hs. */
const settlType = (instrument: Instrument) => (instrument.term === 'CI' ? 0 : 1);

/** `20261122-13:11:04.214-0300`, Primary's transactTime, in Buenos Aires time. */
export function transactTime(ms: number): string {
  const local = marketIsoString(ms);
  return `${local.slice(0, 10).replaceAll('-', '')}-${local.slice(11, 23)}-0300`;
}

export function paperAccountName(username: string): string {
  return `DEMO-${username.toUpperCase()}`;
}

export function createPaperAccount(account: string, catalogue: Catalogue, prices: PriceSource, now: () => number) {
  const random = seededRandom(hashText(account));
  const pick = (predicate: (i: Instrument) => boolean) => catalogue.instruments.filter(predicate);
  const dlr = pick((i) => i.kind === 'future' && i.product === 'DLR');
  const starting: [Instrument | undefined, number][] = [
    [dlr[1], 10],
    [dlr[3], -5],
    [catalogue.resolve('BYMA:AL30') ?? undefined, 1000],
    [catalogue.resolve('BYMA:GGAL') ?? undefined, 500],
    [catalogue.resolve('BYMA:GD30D') ?? undefined, 2000],
    [pick((i) => i.product === 'SOJ.ROS')[1], 3],
  ];
  const holdings = new Map<string, Holding>();
  const fills: Fill[] = [];
  let sequence = 0;

  const priceOf = (instrument: Instrument) => prices.last(instrument.instrumentId.symbol) ?? catalogue.referencePrice.get(instrument.instrumentId.symbol) ?? 0;

  function apply(instrument: Instrument, quantity: number, price: number): void {
    const symbol = instrument.instrumentId.symbol;
    const holding = holdings.get(symbol) ?? { instrument, buySize: 0, buyPrice: 0, sellSize: 0, sellPrice: 0 };
    if (quantity > 0) {
      holding.buyPrice = (holding.buyPrice * holding.buySize + price * quantity) / (holding.buySize + quantity);
      holding.buySize += quantity;
    } else {
      const size = -quantity;
      holding.sellPrice = (holding.sellPrice * holding.sellSize + price * size) / (holding.sellSize + size);
      holding.sellSize += size;
    }
    holdings.set(symbol, holding);
  }

  for (const [instrument, quantity] of starting) {
    if (!instrument) continue;
    // Opened a little away from today's price, so there is something to gain or lose.
    const price = roundToTick(priceOf(instrument) * (1 + (random() - 0.5) * 0.04), instrument.minPriceIncrement);
    apply(instrument, quantity, price);
  }

  return {
    account,

    /** A small market order of one of the holdings, filled at its last price; null when none of their markets trades now. */
    trade(): Fill | null {
      const held = [...holdings.values()].filter((holding) => prices.trading(holding.instrument));
      if (held.length === 0) return null;
      const { instrument } = held[Math.floor(random() * held.length)]!;
      const side = random() < 0.5 ? 'BUY' : 'SELL';
      const lot = instrument.kind === 'stock' || instrument.kind === 'bond' ? 100 : 1;
      const quantity = (1 + Math.floor(random() * 5)) * lot;
      const price = priceOf(instrument);
      apply(instrument, side === 'BUY' ? quantity : -quantity, price);
      sequence += 1;
      const id = `${account}-${sequence}`;
      const fill: Fill = {
        orderId: `O${id}`,
        clOrdId: `C${id}`,
        execId: `E${id}`,
        accountId: { id: account },
        instrumentId: { marketId: 'ROFX', symbol: instrument.instrumentId.symbol },
        side,
        ordType: 'MARKET',
        timeInForce: 'DAY',
        price,
        orderQty: quantity,
        lastPx: price,
        lastQty: quantity,
        cumQty: quantity,
        leavesQty: 0,
        avgPx: price,
        status: 'FILLED',
        transactTime: transactTime(now()),
        text: 'Operación simulada',
      };
      fills.push(fill);
      return fill;
    },

    fills(): Fill[] {
      return [...fills];
    },

    /** Positions valued at the market now; the etag changes exactly when they do. */
    snapshot(): PositionsSnapshot {
      const positions: Position[] = [...holdings.values()].map(({ instrument, buySize, buyPrice, sellSize, sellPrice }) => {
        const symbol = instrument.instrumentId.symbol;
        const last = priceOf(instrument);
        const close = prices.previousClose(symbol) ?? last;
        const net = buySize - sellSize;
        const multiplier = instrument.contractMultiplier;
        // Bonds are quoted per 100 nominal.
        const scale = instrument.kind === 'bond' ? multiplier / 100 : multiplier;
        const round2 = (n: number) => Math.round(n * 100) / 100;
        return {
          instrument: { symbolReference: symbol, settlType: settlType(instrument) },
          symbol,
          buySize,
          buyPrice: round2(buyPrice),
          sellSize,
          sellPrice: round2(sellPrice),
          totalDailyDiff: round2((last - close) * net * scale),
          totalDiff: round2((last * net - (buyPrice * buySize - sellPrice * sellSize)) * scale),
          tradingSymbol: symbol,
          originalBuyPrice: round2(buyPrice),
          originalSellPrice: round2(sellPrice),
        };
      });
      return snapshotOf(account, positions, now());
    },
  };
}
export type PaperAccount = ReturnType<typeof createPaperAccount>;
