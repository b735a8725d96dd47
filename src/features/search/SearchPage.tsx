import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../../data/api';
import { marketQueries } from '../../data/queries/market';
import type { SearchHit } from '../../protocol/market';
import { instrumentKindLabel } from '../../lib/instrumentKinds';
import { formatExchangeDate } from '../../lib/numberFormat';
import { paths } from '../../lib/paths';
import { readSearchQuery, searchDetailPath } from '../../lib/searchQuery';
import { Emoji } from '../../ui/Emoji';
import { useWorkspace } from '../workspace/useWorkspaceData';
import { searchWorkspace } from './searchWorkspace';
import { SymbolDetail } from './SymbolDetail';
import './search.css';

/** History state of a detail opened from the results: closing it goes back to them. */
interface FromResults {
  fromResults: true;
}

const openedFromResults = (state: unknown) => typeof state === 'object' && state !== null && (state as Partial<FromResults>).fromResults === true;

function messageOf(error: Error): string {
  return error instanceof ApiError ? error.message : String(error);
}

function FolderPath({ path }: { path: string[] }) {
  return <span className="search-results__path">{path.length ? path.join(' › ') : 'Espacio de trabajo'}</span>;
}

/**
 * Search results: symbols of the market and the user's visores and folders. A symbol opens its
 * detail above them, named in the URL after the text (lib/searchQuery.ts): a link opens it, and
 * the back button closes it or returns to the one before.
 */
export function SearchPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { text, symbol: openSymbol } = readSearchQuery(location.search);
  const { tree, visores } = useWorkspace();
  const searched = text.trim() !== '';
  const symbolSearch = useQuery({ ...marketQueries.search(text), enabled: searched });
  // Empty text matches no symbol; a failed refresh (on focus, on reconnect) keeps the list shown.
  const symbols: SearchHit[] | null = searched ? (symbolSearch.data ?? null) : [];
  const symbolsError = symbols === null && symbolSearch.error ? messageOf(symbolSearch.error) : null;

  const hits = useMemo(() => searchWorkspace(text, tree?.nodes ?? [], visores ?? []), [text, tree, visores]);

  const closeDetail = () => {
    if (openedFromResults(location.state)) void navigate(-1);
    else void navigate(paths.search(text), { replace: true });
  };

  return (
    <section className="page search-results">
      <h1>Búsqueda</h1>
      <p className="page__lead">
        Resultados para <strong>«{text}»</strong>
      </p>
      {openSymbol && <SymbolDetail key={openSymbol} symbol={openSymbol} listed={symbols} visores={visores} onClose={closeDetail} />}
      <div className="search-results__grid">
        <div className="card" aria-labelledby="search-symbols">
          <h2 id="search-symbols">Símbolos</h2>
          {symbolsError && <p className="form-error">{symbolsError}</p>}
          {symbols === null && !symbolsError && <p className="muted">Buscando…</p>}
          {symbols?.length === 0 && <p className="muted">Ningún símbolo coincide.</p>}
          {symbols && symbols.length > 0 && (
            <ul className="search-results__list">
              {symbols.map((hit) => (
                <li key={hit.symbol} aria-current={hit.symbol === openSymbol ? 'true' : undefined}>
                  <Link
                    className="search-results__symbol"
                    to={searchDetailPath(text, hit.symbol)}
                    state={{ fromResults: true } satisfies FromResults}
                    replace={openSymbol != null && openedFromResults(location.state)}
                    aria-label={`Ver el detalle de ${hit.symbol}`}
                  >
                    {hit.symbol}
                  </Link>
                  <span>{hit.description}</span>
                  <small className="muted">
                    {instrumentKindLabel(hit.kind)} · {hit.currency}
                    {hit.maturityDate ? ` · vence ${formatExchangeDate(hit.maturityDate)}` : ''}
                  </small>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="card" aria-labelledby="search-visores">
          <h2 id="search-visores">Visores</h2>
          {visores === undefined && <p className="muted">Cargando…</p>}
          {visores !== undefined && hits.visores.length === 0 && <p className="muted">Ningún visor coincide.</p>}
          <ul className="search-results__list">
            {hits.visores.map(({ visor, path }) => (
              <li key={visor.visor_id}>
                <Link to={paths['visor-modo-edicion'](visor.visor_id)}>
                  <span aria-hidden="true">{visor.emoji && <Emoji emoji={visor.emoji} />}</span> {visor.title}
                </Link>
                <FolderPath path={path} />
              </li>
            ))}
          </ul>
        </div>
        <div className="card" aria-labelledby="search-folders">
          <h2 id="search-folders">Carpetas</h2>
          {tree !== undefined && hits.folders.length === 0 && <p className="muted">Ninguna carpeta coincide.</p>}
          <ul className="search-results__list">
            {hits.folders.map((folder) => (
              <li key={folder.folderId}>
                <span>
                  <span aria-hidden="true">
                    <Emoji emoji={folder.emoji || '📁'} />
                  </span>{' '}
                  {folder.name}
                </span>
                <FolderPath path={folder.path} />
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
