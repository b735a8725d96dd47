// The months of a futures curve (the Curva section, issue 19), from the instrument catalogue
// and today's date: a product's outright futures (`DLR/DIC26`; not the all-or-none `…A`
// contracts, spreads or options) that have not expired, nearest first. Derived again at each
// render and each new day, so expired months drop out and new ones join as the catalogue
// rolls. Pure, no I/O.
import type { PrimaryInstrument } from '../protocol/market';
import { parseMonthCode, parseYyyymmdd, yyyymmdd } from './calendar';

/** The catalogue fields a curve reads. */
export type CurveInstrument = Pick<PrimaryInstrument, 'instrumentId' | 'cficode' | 'maturityDate'>;

export interface CurveContract {
  /** As the exchange writes it: `DLR/DIC26`. */
  symbol: string;
  /** The month code: `DIC26`. */
  month: string;
  /** Expiry (UTC date). */
  expiry: Date;
}

const OUTRIGHT = /^(.+)\/([A-Z]{3}\d{2})$/;

/** Buenos Aires is UTC-3 all year (no daylight saving since 2009). */
const MARKET_OFFSET_MS = 3 * 60 * 60 * 1000;

/** Today's date where the market is (Buenos Aires), as a UTC date. */
export function marketToday(epochMs: number): Date {
  const local = new Date(epochMs - MARKET_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
}

function outright(instrument: CurveInstrument): { product: string; month: string; expiry: Date } | null {
  // Futures' CFI codes start with F; `FM…` are the calendar spreads.
  if (!instrument.cficode.startsWith('F') || instrument.cficode.startsWith('FM')) return null;
  const match = OUTRIGHT.exec(instrument.instrumentId.symbol);
  if (!match || !parseMonthCode(match[2]!)) return null;
  const expiry = instrument.maturityDate ? parseYyyymmdd(instrument.maturityDate) : null;
  return expiry ? { product: match[1]!, month: match[2]!, expiry } : null;
}

/** The product's months still trading on `today` (a contract trades on its expiry day), nearest first. */
export function curveContracts(instruments: readonly CurveInstrument[], product: string, today: Date): CurveContract[] {
  const day = yyyymmdd(today);
  const contracts: CurveContract[] = [];
  for (const instrument of instruments) {
    const found = outright(instrument);
    if (!found || found.product !== product || yyyymmdd(found.expiry) < day) continue;
    contracts.push({ symbol: instrument.instrumentId.symbol, month: found.month, expiry: found.expiry });
  }
  return contracts.sort((a, b) => a.expiry.getTime() - b.expiry.getTime() || a.symbol.localeCompare(b.symbol));
}

/** Products with at least two months still trading on `today`: the ones a curve can draw, DLR first. */
export function curveProducts(instruments: readonly CurveInstrument[], today: Date): string[] {
  const day = yyyymmdd(today);
  const months = new Map<string, number>();
  for (const instrument of instruments) {
    const found = outright(instrument);
    if (found && yyyymmdd(found.expiry) >= day) months.set(found.product, (months.get(found.product) ?? 0) + 1);
  }
  return [...months]
    .filter(([, count]) => count >= 2)
    .map(([product]) => product)
    .sort((a, b) => (a === 'DLR' ? -1 : b === 'DLR' ? 1 : a.localeCompare(b)));
}

/**
 * The spot references the catalogue offers for a product, the natural one first: the A3500
 * dollar (`DLR/SPOT`) for DLR, the index (`I.RFX20`) for an index future, the share's 24hs
 * line for a single-stock future. Empty when the catalogue has none (crude, gold, grains).
 */
export function spotCandidates(instruments: readonly CurveInstrument[], product: string): string[] {
  const listed = new Set(instruments.map((instrument) => instrument.instrumentId.symbol));
  const wanted = [`${product}/SPOT`, `I.${product}`, `MERV - XMEV - ${product} - 24hs`, `MERV - XMEV - ${product} - CI`];
  return wanted.filter((symbol) => listed.has(symbol));
}
