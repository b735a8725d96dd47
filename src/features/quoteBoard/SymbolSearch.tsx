// Finds instruments with POST /api/visores/search and adds the chosen one to the board. Text
// submitted without picking a hit (Enter, Agregar) is searched once more: a symbol typed in
// full is added as the exchange writes it, a ticker alone (AL30) as its best match (the 24hs
// line), and text that matches nothing says so instead of adding a row that never fills. An
// exchange-prefixed symbol (ROFEX:…, BYMA:…) is added as written, and so is any text while the
// search cannot be reached (offline, the socket still knows every spelling). Arrow keys move
// from the text to the hits and between them; Escape goes back to the text.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ApiError } from '../../data/api';
import { marketQueries } from '../../data/queries/market';
import type { SearchHit } from '../../protocol/market';

const SEARCH_DELAY_MS = 250;
const MAX_HITS = 20;

/** The text once typing has paused for SEARCH_DELAY_MS; null until then. */
function useSettledText(text: string): string | null {
  const [settled, setSettled] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

/**
 * The live search of the text being typed, with the last submit's answer. Mounted only while
 * the text has two characters or more, so after a reset (a symbol added, the text erased) the
 * list starts empty; until then each answer stays shown while the next one is on its way.
 * The submit's answer and the live search's failure are kept apart, so a search that lands
 * after a submit does not clear what the submit said.
 */
function LiveSearch({ query, submitError, onPick }: { query: string; submitError: string | null; onPick(symbol: string): void }) {
  const settled = useSettledText(query);
  const live = useQuery({ ...marketQueries.search(settled ?? ''), enabled: settled !== null, placeholderData: keepPreviousData });
  const hits = (live.data ?? []).slice(0, MAX_HITS);
  const searchError = live.isError ? (live.error instanceof ApiError ? live.error.message : 'No se pudo buscar') : null;
  const error = submitError ?? searchError;
  return (
    <>
      {error && <p className="form-error">{error}</p>}
      {hits.length > 0 && (
        <ul className="quote-search__hits" aria-label="Resultados de la búsqueda">
          {hits.map((hit) => (
            <li key={hit.symbol}>
              <button type="button" onClick={() => onPick(hit.symbol)}>
                <strong>{hit.symbol}</strong> <span>{hit.description}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Up and down between the text and the hits (focus moves; Enter on a hit picks it). */
function moveAmongHits(event: KeyboardEvent<HTMLFormElement>, input: HTMLInputElement | null) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Escape') return;
  const stops = [input, ...event.currentTarget.querySelectorAll<HTMLButtonElement>('.quote-search__hits button')].filter((node) => node != null);
  if (stops.length < 2) return;
  event.preventDefault();
  if (event.key === 'Escape') return input?.focus();
  const at = stops.indexOf(document.activeElement as HTMLInputElement | HTMLButtonElement);
  stops[(at + (event.key === 'ArrowDown' ? 1 : -1) + stops.length) % stops.length]!.focus();
}

interface SymbolSearchProps {
  onAdd(symbol: string): void;
  /** Why adding is off (offline…), shown beside the field; null or absent when it works. */
  disabledReason?: string | null;
  /** Focus the text when shown (a form opened by a button). */
  autoFocus?: boolean;
}

export function SymbolSearch({ onAdd, disabledReason = null, autoFocus = false }: SymbolSearchProps) {
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [submitError, setSubmitError] = useState<string | null>(null);
  const listId = useId();
  const query = text.trim();

  /** Adds `symbol`; the text is cleared unless the user has typed something else since `submitted` was sent. */
  const add = (symbol: string, submitted?: string) => {
    onAdd(symbol);
    setText((current) => (submitted === undefined || current.trim() === submitted ? '' : current));
    setSubmitError(null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = text.trim();
    if (!typed) return;
    if (typed.includes(':')) return add(typed);
    let found: SearchHit[];
    try {
      found = await queryClient.fetchQuery(marketQueries.submittedSearch(typed));
    } catch {
      return add(typed, typed);
    }
    const chosen = found.find((hit) => hit.symbol.toUpperCase() === typed.toUpperCase()) ?? found[0];
    if (chosen) add(chosen.symbol, typed);
    else setSubmitError(`No se encontró el símbolo «${typed}»`);
  };

  return (
    <form className="quote-search" onSubmit={(event) => void submit(event)} onKeyDown={(event) => moveAmongHits(event, inputRef.current)} role="search">
      <label htmlFor={`${listId}-input`}>Agregar símbolo</label>
      <div className="quote-search__row">
        <input
          ref={inputRef}
          id={`${listId}-input`}
          disabled={disabledReason != null}
          autoFocus={autoFocus}
          type="search"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setSubmitError(null);
          }}
          placeholder="Buscar símbolo (p. ej. DLR, AL30, GGAL)"
          autoComplete="off"
        />
        <button type="submit" className="button button--primary" disabled={!text.trim() || disabledReason != null}>
          Agregar
        </button>
      </div>
      {disabledReason != null && <p className="quote-search__hint">{disabledReason}</p>}
      {query.length >= 2 ? <LiveSearch query={query} submitError={submitError} onPick={add} /> : submitError && <p className="form-error">{submitError}</p>}
    </form>
  );
}
