// Finds instruments with POST /api/visores/search and adds the chosen one to the board; a
// symbol typed in full (Enter) is added as written, so any symbol the socket knows works.
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
  const [error, setError] = useState<string | null>(null);
  const listId = useId();

  useEffect(() => {
    const query = text.trim();
    if (query.length < 2) {
      setHits([]);
      setError(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      apiRequest<{ data: SearchHit[] }>('/visores/search', { method: 'POST', body: { symbol: query }, token: getToken(), signal: controller.signal })
        .then((answer) => {
          setHits(answer.data.slice(0, 20));
          setError(null);
        })
        .catch((failure: unknown) => {
          if (controller.signal.aborted) return;
          setHits([]);
          setError(failure instanceof ApiError ? failure.message : 'No se pudo buscar');
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
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const symbol = text.trim();
    if (symbol) add(hits.find((hit) => hit.symbol.toUpperCase() === symbol.toUpperCase())?.symbol ?? symbol);
  };

  return (
    <form className="quote-search" onSubmit={submit} role="search">
      <label htmlFor={`${listId}-input`}>Agregar símbolo</label>
      <div className="quote-search__row">
        <input
          id={`${listId}-input`}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
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
