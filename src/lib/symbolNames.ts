// Symbols as a trader reads them (issue 18): the exchange writes `MERV - XMEV - AL30 - 24hs`
// and `DLR/DIC26`; formulas write `BYMA:AL30` and `ROFEX:DLR/DIC26`. A board shows
// `AL30 24hs` and `DLR/DIC26`, with the full name on hover. Pure, no I/O.
import type { InstrumentKind } from '../protocol/market';

const BYMA_LONG = /^MERV - XMEV - (.+) - (CI|24hs|48hs)$/i;
const PREFIXED = /^([A-Z]+):(.+)$/i;
const MONTH = /\/[A-Z]{3}\d{2}A?$/;

/** `MERV - XMEV - AL30 - 24hs` → `AL30 24hs`; `ROFEX:DLR/DIC26` → `DLR/DIC26`; `BYMA:AL30 - CI` → `AL30 CI`. */
export function displaySymbol(symbol: string): string {
  const text = symbol.trim();
  const long = BYMA_LONG.exec(text);
  if (long) return `${long[1]} ${long[2]}`;
  const prefixed = PREFIXED.exec(text);
  if (prefixed) return prefixed[2]!.replace(/\s+-\s+/g, ' ');
  return text;
}

/**
 * The exchange's name of a symbol written with its market, as the catalogue lists
 * instruments: `BYMA:AL30` is the 24hs line `MERV - XMEV - AL30 - 24hs`, `ROFEX:DLR/DIC26`
 * is `DLR/DIC26`. Other symbols are already the exchange's.
 */
export function exchangeSymbol(symbol: string): string {
  const text = symbol.trim();
  const prefixed = PREFIXED.exec(text);
  if (!prefixed) return text;
  const market = prefixed[1]!.toUpperCase();
  const rest = prefixed[2]!.trim();
  if (market === 'BYMA') {
    const term = /^(.+?)\s*-\s*(CI|24hs|48hs)$/i.exec(rest);
    return term ? `MERV - XMEV - ${term[1]} - ${term[2]!.toUpperCase() === 'CI' ? 'CI' : term[2]!.toLowerCase()}` : `MERV - XMEV - ${rest} - 24hs`;
  }
  return rest;
}

/**
 * The kind of instrument a symbol names, from how the exchange writes it (the board picks
 * its default columns by it): `DLR/DIC26 1450 C` an option, `DLR/DIC26/ENE27` a spread,
 * `DLR/DIC26` a future, `I.MERVAL` an index, `DLR/SPOT` the spot dollar, a BYMA line a
 * security (stock or bond alike: 'stock').
 */
export function symbolKind(symbol: string): InstrumentKind {
  const name = exchangeSymbol(symbol);
  if (BYMA_LONG.test(name)) return name.startsWith('MERV - XMEV - I.') ? 'index' : 'stock';
  if (/^I\./i.test(name)) return 'index';
  if (/\/SPOT$/i.test(name)) return 'spot';
  if (/ \d+(\.\d+)? [CP]$/.test(name)) return 'option';
  if (/\/[A-Z]{3}\d{2}A?\/[A-Z]{3}\d{2}A?$/.test(name)) return 'spread';
  if (MONTH.test(name)) return 'future';
  return 'other';
}
