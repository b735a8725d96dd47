// The live state of one symbol as the market socket describes it (spec section 3): `md`
// plus `expiration` (YYYYMMDD on the wire, a date here). A field whose value is the string
// '0' never overwrites what is known; every other field replaces its old value (each
// message is a full refresh of the entries it carries).
import type { MarketData } from '../protocol/market';
import { parseYyyymmdd } from './calendar';

/** One symbol's part of a socket message, as received. */
export type SymbolPayload = Record<string, unknown>;

export interface Quote {
  md: MarketData;
  /** Parsed from YYYYMMDD; absent for instruments that do not expire. */
  expiration?: Date;
}

/** The spec's ignored value. */
export const IGNORED_VALUE = '0';

function withoutIgnored(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    if (value !== IGNORED_VALUE) target[key] = value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value != null && !Array.isArray(value);
}

/**
 * Folds a newer payload into an older one of the same symbol, so two payloads can wait as
 * one: applying the result equals applying both in order.
 */
export function foldPayloads(older: SymbolPayload, newer: SymbolPayload): SymbolPayload {
  const folded: SymbolPayload = { ...older };
  withoutIgnored(folded, newer);
  if (isRecord(newer.md)) {
    const md: Record<string, unknown> = isRecord(older.md) ? { ...older.md } : {};
    withoutIgnored(md, newer.md);
    folded.md = md;
  }
  return folded;
}

/** The symbol's state after a payload: '0' fields skipped, `expiration` parsed. */
export function applyPayload(known: Quote | undefined, payload: SymbolPayload): Quote {
  const md: Record<string, unknown> = { ...known?.md };
  if (isRecord(payload.md)) withoutIgnored(md, payload.md);
  const quote: Quote = { md: md as MarketData };
  const expiration = typeof payload.expiration === 'string' ? parseYyyymmdd(payload.expiration) : null;
  if (expiration) quote.expiration = expiration;
  else if (known?.expiration) quote.expiration = known.expiration;
  return quote;
}
