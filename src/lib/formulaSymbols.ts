// Which symbols of a formula the instrument catalogue does not list, and how that is said
// where the formula is written. A formula names symbols with their market (`BYMA:AL30`,
// `ROFEX:DLR/DIC26`) or in BYMA's long form; the catalogue lists each instrument under the
// exchange's name (`MERV - XMEV - AL30 - 24hs`, `DLR/DIC26`, `I.MERVAL`), as the server's
// aliases resolve them (server/market/catalogue.ts). Pure, no I/O.
import { exchangeSymbol } from './symbolNames';

/** The catalogue's names, folded for lookups (upper case, single spaces). */
export type CatalogueNames = ReadonlySet<string>;

const fold = (symbol: string) => symbol.trim().replace(/\s+/g, ' ').toUpperCase();

export function catalogueNames(instruments: Iterable<{ instrumentId: { symbol: string } }>): CatalogueNames {
  const names = new Set<string>();
  for (const instrument of instruments) names.add(fold(instrument.instrumentId.symbol));
  return names;
}

const PREFIXED = /^([A-Z]+):(.+)$/i;

/**
 * The name a formula's symbol has in the catalogue, as the server's aliases read it: `BYMA:X`
 * is the 24hs line of X, or the index X (`BYMA:I.MERVAL`); `ROFEX:X` and `ROFX:X` are X; a
 * long BYMA name is itself. Another market's prefix is no alias: none.
 */
function catalogueName(symbol: string): string | null {
  const prefixed = PREFIXED.exec(symbol.trim());
  if (!prefixed) return symbol;
  const market = prefixed[1]!.toUpperCase();
  const ticker = prefixed[2]!.trim();
  if (market === 'BYMA') return /^I\./i.test(ticker) ? ticker : exchangeSymbol(symbol);
  return market === 'ROFEX' || market === 'ROFX' ? ticker : null;
}

/** The symbols (as the formula names them) that the catalogue does not list, in order. */
export function unknownSymbols(symbols: readonly string[], names: CatalogueNames): string[] {
  return symbols.filter((symbol) => {
    const name = catalogueName(symbol);
    return name == null || !names.has(fold(name));
  });
}

/** What the form says of the unknown symbols: `«BYMA:NOEXISTE» no está en el catálogo de instrumentos`. */
export function unknownSymbolsMessage(unknown: readonly string[]): string | null {
  if (unknown.length === 0) return null;
  const names = unknown.map((symbol) => `«${symbol}»`);
  if (names.length === 1) return `${names[0]} no está en el catálogo de instrumentos: revise el nombre (p. ej. BYMA:AL30, ROFEX:DLR/DIC26)`;
  return `${names.slice(0, -1).join(', ')} y ${names.at(-1)} no están en el catálogo de instrumentos: revise los nombres (p. ej. BYMA:AL30, ROFEX:DLR/DIC26)`;
}

/** The message when the catalogue cannot be read here nor asked of the server (nothing was checked, so nothing is taken). */
export const CATALOGUE_UNAVAILABLE =
  'No se pudo comprobar los símbolos: el catálogo de instrumentos no está disponible. Intente de nuevo al recuperar la conexión.';
