// Finds instruments with POST /api/visores/search and adds the chosen one to the board. Text
// submitted without picking a hit (Enter, Agregar) is searched once more: a symbol typed in
// full is added as the exchange writes it, a ticker alone (AL30) as its best match (the 24hs
// line), and text that matches nothing says so instead of adding a row that never fills. An
// exchange-prefixed symbol (ROFEX:…, BYMA:…) is added as written, and so is any text while the
// search cannot be reached (offline, the socket still knows every spelling).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError, apiRequest } from '../../data/api';
import { getToken } from '../../data/session';

interface SearchHit {
  symbol: string;
  description: string;
  maturityDate: string | null;
}

const SEARCH_DELAY_MS = 250;

export function SymbolSearch({ onAdd }: { onAdd(symbol: string): void }) {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<SearchHit[]>([]);
  /** The live search's failure, and the last submit's answer: kept apart, so a search that
   * lands after a submit does not clear what the submit said. */
  const [searchError, setSearchError] = useState<string | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const error = submitError ?? searchError;
  const listId = useId();

  useEffect(() => {
    const query = text.trim();
    if (query.length < 2) {
      setHits([]);
      setSearchError(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      apiRequest<{ data: SearchHit[] }>('/visores/search', { method: 'POST', body: { symbol: query }, token: getToken(), signal: controller.signal })
        .then((answer) => {
          setHits(answer.data.slice(0, 20));
          setSearchError(null);
        })
        .catch((failure: unknown) => {
          if (controller.signal.aborted) return;
          setHits([]);
          setSearchError(failure instanceof ApiError ? failure.message : 'No se pudo buscar');
        });
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  const add = (symbol: string) => {
    onAdd(symbol);
    setText('');
    setHits([]);
    setSubmitError(null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = text.trim();
    if (!typed) return;
    if (typed.includes(':')) return add(typed);
    let found: SearchHit[];
    try {
      found = (await apiRequest<{ data: SearchHit[] }>('/visores/search', { method: 'POST', body: { symbol: typed }, token: getToken() })).data;
    } catch {
      return add(typed);
    }
    const chosen = found.find((hit) => hit.symbol.toUpperCase() === typed.toUpperCase()) ?? found[0];
    if (chosen) add(chosen.symbol);
    else setSubmitError(`No se encontró el símbolo «${typed}»`);
  };

  return (
    <form className="quote-search" onSubmit={(event) => void submit(event)} role="search">
      <label htmlFor={`${listId}-input`}>Agregar símbolo</label>
      <div className="quote-search__row">
        <input
          id={`${listId}-input`}
          type="search"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setSubmitError(null);
          }}
          placeholder="Buscar símbolo (p. ej. DLR, AL30, GGAL)"
          autoComplete="off"
        />
        <button type="submit" className="button button--primary" disabled={!text.trim()}>
          Agregar
        </button>
      </div>
      {error && <p className="form-error">{error}</p>}
      {hits.length > 0 && (
        <ul className="quote-search__hits" aria-label="Resultados de la búsqueda">
          {hits.map((hit) => (
            <li key={hit.symbol}>
              <button type="button" onClick={() => add(hit.symbol)}>
                <strong>{hit.symbol}</strong> <span>{hit.description}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
