// The search detail's small chart of a symbol's recent daily closes. The history comes from
// POST /visores/search/symbol/history; lightweight-charts loads with its own chunk the first
// time a detail draws one (the search route stays small). Not React.lazy: a chunk that failed
// to load (offline, a deploy that removed it) stays a message here with a button to try again.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { marketQueries } from '../../data/queries/market';
import { formatNumber } from '../../lib/numberFormat';
import { sparklineOf } from '../../lib/sparkline';

/** Sessions the small chart shows: about six weeks. */
export const SPARKLINE_SESSIONS = 30;

/** `2026-05-04` → `04/05/2026`. */
const isoDay = (time: string) => time.split('-').reverse().join('/');

export function Sparkline({ symbol, decimals }: { symbol: string; decimals: number }) {
  const history = useQuery(marketQueries.dailyHistory(symbol, SPARKLINE_SESSIONS));
  const line = useMemo(() => (history.data ? sparklineOf(history.data) : null), [history.data]);
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const container = box.current;
    if (!container || !line) return;
    let live = true;
    let stop: (() => void) | null = null;
    import('./sparklineCanvas').then(
      ({ mountSparkline }) => {
        if (live) stop = mountSparkline(container, line);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [line, attempt]);

  if (history.error) return <p className="muted search-detail__chart-note">No se pudo leer el historial: {history.error.message}</p>;
  if (!history.data) return <p className="muted search-detail__chart-note">Cargando el historial…</p>;
  if (!line) return <p className="muted search-detail__chart-note">Sin cierres diarios para mostrar.</p>;
  const summary = `Cierres diarios de ${line.points.length} ruedas: de ${formatNumber(line.first.value, decimals)} el ${isoDay(line.first.time)} a ${formatNumber(line.last.value, decimals)} el ${isoDay(line.last.time)}`;
  return (
    <figure className="search-detail__chart">
      {failed ? (
        <p className="muted search-detail__chart-note">
          No se pudo cargar el gráfico.{' '}
          <button
            type="button"
            className="button"
            onClick={() => {
              setFailed(false);
              setAttempt((count) => count + 1);
            }}
          >
            Reintentar
          </button>
        </p>
      ) : (
        <div ref={box} className="search-detail__spark" role="img" aria-label={summary} data-points={line.points.length} data-direction={line.direction} />
      )}
      <figcaption className="muted">{summary}</figcaption>
    </figure>
  );
}
