// The arithmetic of a positions table (issue 19), pure: each broker position (Primary's
// buySize/buyPrice/sellSize/sellPrice) marked at a live last price, its P&L and P&L %, and
// the totals per currency (pesos and dollars are never added together).
//
// A position's quantity is what it holds net (bought − sold); its average price is the
// average of the side it holds (the buys of a long, the sells of a short). P&L is that open
// quantity marked at the last price: (last − average) × quantity × value per point, and
// P&L % is it over what the position cost, (last − average) / average, signed by the side.
// The value per point is the instrument's contract multiplier, over 100 for a bond (bonds
// are quoted per 100 nominal), as the broker values them.

/** The fields of a broker position this needs (protocol/broker.ts Position). */
export interface PositionFields {
  symbol: string;
  buySize: number;
  buyPrice: number;
  sellSize: number;
  sellPrice: number;
}

/** What the table needs to know of an instrument (from the catalogue); unknown: multiplier 1, no currency. */
export interface InstrumentTerms {
  /** Money per point of price per unit held: contractMultiplier, over 100 for bonds. */
  pointValue: number;
  currency: string | null;
}

export interface PositionMark {
  symbol: string;
  /** Net quantity held: positive long, negative short, 0 flat. */
  quantity: number;
  /** Average price of the side held; null when flat. */
  averagePrice: number | null;
  /** The live last price, or null when none has arrived. */
  lastPrice: number | null;
  /** What the open quantity cost: |quantity| × average × point value; 0 when flat. */
  cost: number;
  /** null without a last price or when flat. */
  pnl: number | null;
  /** In percent (12.5 for 12.5 %); null without a last price, when flat or when the average is 0. */
  pnlPct: number | null;
  currency: string | null;
}

export interface PositionsTotal {
  currency: string | null;
  /** Sum of the P&L of the positions with a last price. */
  pnl: number;
  /** Sum of their cost. */
  cost: number;
  /** pnl / cost in percent; null when nothing is marked. */
  pnlPct: number | null;
  /** Positions of this currency without a last price yet (their P&L is not in the sum). */
  unmarked: number;
}

const finite = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** The value per point of an instrument from its catalogue record. */
export function pointValueOf(contractMultiplier: number, cficode: string): number {
  const multiplier = finite(contractMultiplier) && contractMultiplier > 0 ? contractMultiplier : 1;
  return cficode.trim().toUpperCase().startsWith('D') ? multiplier / 100 : multiplier;
}

/** One position marked at `last` (null: no price yet). */
export function markPosition(position: PositionFields, last: number | null, terms: InstrumentTerms | null = null): PositionMark {
  const quantity = position.buySize - position.sellSize;
  const averagePrice = quantity > 0 ? position.buyPrice : quantity < 0 ? position.sellPrice : null;
  const pointValue = terms && finite(terms.pointValue) && terms.pointValue > 0 ? terms.pointValue : 1;
  const lastPrice = finite(last) ? last : null;
  const cost = averagePrice != null ? Math.abs(quantity) * averagePrice * pointValue : 0;
  const marked = lastPrice != null && averagePrice != null;
  const pnl = marked ? (lastPrice - averagePrice) * quantity * pointValue : null;
  const pnlPct = marked && averagePrice !== 0 ? ((lastPrice - averagePrice) / averagePrice) * Math.sign(quantity) * 100 : null;
  return { symbol: position.symbol, quantity, averagePrice, lastPrice, cost, pnl, pnlPct, currency: terms?.currency ?? null };
}

/** Totals per currency, in the order the currencies first appear; flat positions are left out. */
export function totalsByCurrency(marks: readonly PositionMark[]): PositionsTotal[] {
  const totals = new Map<string | null, PositionsTotal>();
  for (const mark of marks) {
    if (mark.quantity === 0) continue;
    let total = totals.get(mark.currency);
    if (!total) totals.set(mark.currency, (total = { currency: mark.currency, pnl: 0, cost: 0, pnlPct: null, unmarked: 0 }));
    if (mark.pnl == null) {
      total.unmarked += 1;
      continue;
    }
    total.pnl += mark.pnl;
    total.cost += mark.cost;
  }
  for (const total of totals.values()) total.pnlPct = total.cost > 0 ? (total.pnl / total.cost) * 100 : null;
  return [...totals.values()];
}

/** -1, 0 or 1: the colour a P&L is shown in (red, plain, green). */
export function pnlSign(value: number | null): -1 | 0 | 1 {
  if (value == null || !Number.isFinite(value) || value === 0) return 0;
  return value > 0 ? 1 : -1;
}
