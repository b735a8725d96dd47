// The search route's query (spec section 2: `/backend/pages/generic/search?{search text}`): the
// text is the whole query string, encoded. The symbol whose detail is open rides after it as
// `&symbol=…`: paths.search encodes every `&` of the text, so the first raw `&symbol=` can only
// be this one, and a link or the back button brings the detail back with the results.
import { paths } from './paths';

const SYMBOL_PARAM = '&symbol=';

function decode(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

export interface SearchQuery {
  text: string;
  /** The symbol whose detail is open, or null. */
  symbol: string | null;
}

/** Reads a location's `search` (`?DLR&symbol=DLR%2FDIC26`). */
export function readSearchQuery(search: string): SearchQuery {
  const raw = search.replace(/^\?/, '');
  const at = raw.indexOf(SYMBOL_PARAM);
  if (at < 0) return { text: decode(raw), symbol: null };
  const symbol = decode(raw.slice(at + SYMBOL_PARAM.length)).trim();
  return { text: decode(raw.slice(0, at)), symbol: symbol || null };
}

/** The search route for `text` with the detail of `symbol` open. */
export function searchDetailPath(text: string, symbol: string): string {
  return `${paths.search(text)}${SYMBOL_PARAM}${encodeURIComponent(symbol)}`;
}
