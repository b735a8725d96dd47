// The symbols on the quote board: kept in local storage (every tab of the browser shares the
// list), or given in the address as `?simbolos=A,B,C` (a link to a prepared board).
import { useCallback, useState } from 'react';

const STORAGE_KEY = 'visores.quoteBoard.symbols';
export const SYMBOLS_PARAM = 'simbolos';

/** Symbols of a comma-separated list, trimmed, without blanks or repeats, in order. */
export function parseSymbolList(text: string | null | undefined): string[] {
  if (!text) return [];
  return [
    ...new Set(
      text
        .split(',')
        .map((symbol) => symbol.trim())
        .filter((symbol) => symbol.length > 0),
    ),
  ];
}

function stored(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((symbol): symbol is string => typeof symbol === 'string') : [];
  } catch {
    return [];
  }
}

function initial(search: string): string[] {
  const fromAddress = parseSymbolList(new URLSearchParams(search).get(SYMBOLS_PARAM));
  return fromAddress.length > 0 ? fromAddress : stored();
}

export function useBoardSymbols(search: string) {
  const [symbols, setSymbols] = useState(() => initial(search));
  const update = useCallback((change: (current: string[]) => string[]) => {
    setSymbols((current) => {
      const next = change(current);
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  const add = useCallback((symbol: string) => update((current) => (current.includes(symbol) ? current : [...current, symbol])), [update]);
  const remove = useCallback((symbol: string) => update((current) => current.filter((s) => s !== symbol)), [update]);
  return { symbols, add, remove };
}
