// The chart section (`Gráfico`, issue 19): symbols and formulas over time with
// lightweight-charts. Candles (and volume) for one symbol, lines for several or for formulas;
// a legend with each series' last value and change; range and interval switched on the
// header; the last candle live; the crosshair shared by the visor's charts. Settings add
// and remove series. In public mode it only shows.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { HistoryStatus } from '../../../../data/chartHistory';
import { useOnline } from '../../../../data/offline';
import { useMarketStatesOf } from '../../../../data/store';
import { lastUpdateOf } from '../../../../lib/marketStateTexts';
import { chartSeriesSpec, effectiveInterval, INTRADAY_RANGES, isIntradayInterval } from '../../../../lib/candles';
import { formatMarketTime } from '../../../../lib/numberFormat';
import { lineColor } from '../../../../lib/palette';
import { CHART_INTERVALS, CHART_RANGES, type ChartConfig } from '../../../../protocol/workspace';
import type { SectionViewProps } from '../types';
import { mountChart, type ChartSeriesView } from './chartCanvas';
import { INTERVAL_LABELS, RANGE_LABELS, readChartConfig, withInterval, withRange } from './chartConfig';
import { ChartSettings } from './ChartSettings';
import { seriesLabel } from './chartFormat';
import '../formula/formula.css';
import './chart.css';

function statusText(status: HistoryStatus): string | null {
  const day = (ms: number) => `${new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10).split('-').reverse().join('/')} ${formatMarketTime(ms, false)}`;
  switch (status.state) {
    case 'loading':
      return 'Cargando historial…';
    case 'cached':
      return `Datos guardados del ${day(status.fetchedAt)} · actualizando`;
    case 'offline':
      return `Sin conexión: datos guardados del ${day(status.fetchedAt)}`;
    case 'error':
      return status.message;
    case 'current':
      return null;
  }
}

export function ChartView({ section, editable, onConfigChange, settingsOpen, onSettingsClose, disabledReason }: SectionViewProps<'chart'>) {
  const config = readChartConfig(section.config);
  const interval = effectiveInterval(config.range, config.interval);
  const seriesKey = config.series.join('\n');
  const views = useMemo<ChartSeriesView[]>(
    () => (seriesKey === '' ? [] : seriesKey.split('\n')).map((text, index) => ({ spec: chartSeriesSpec(text), color: lineColor(index) })),
    [seriesKey],
  );
  const candleMode = views.length === 1 && views[0]!.spec.kind === 'symbol';
  const rootRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<HistoryStatus>({ state: 'loading' });
  // Back online (issue 21): a chart that could not ask the server (its cached history on
  // screen, or nothing) asks again, without a reload.
  const online = useOnline();
  const [wasOnline, setWasOnline] = useState(online);
  const [attempt, setAttempt] = useState(0);
  if (online !== wasOnline) {
    setWasOnline(online);
    if (online && (status.state === 'offline' || status.state === 'error')) setAttempt((count) => count + 1);
  }

  useLayoutEffect(() => {
    if (views.length === 0) return;
    return mountChart({ container: canvasRef.current!, root: rootRef.current!, series: views, range: config.range, interval, onStatus: setStatus });
  }, [views, config.range, interval, attempt]);

  const change = (update: (current: ChartConfig) => ChartConfig) => onConfigChange((current) => update(readChartConfig(current)));
  const canChange = editable && disabledReason == null;
  const note = views.length > 0 ? statusText(status) : null;
  // A series of a market not running (stopped, silent, reconnecting, closed): its live end is stale.
  const seriesSymbols = useMemo(
    () => views.flatMap(({ spec }) => (spec.kind === 'symbol' ? [spec.symbol] : spec.kind === 'formula' ? spec.symbols : [])),
    [views],
  );
  const seriesMarkets = useMarketStatesOf(seriesSymbols);
  const stale = seriesMarkets.some((entry) => entry.state !== 'running');
  const lastUpdate = lastUpdateOf(seriesMarkets);

  return (
    <div className="vs-chart" ref={rootRef} data-state={status.state} data-range={config.range} data-interval={interval} data-stale={stale}>
      {editable && settingsOpen && <ChartSettings config={config} disabledReason={disabledReason} onChange={change} onClose={onSettingsClose} />}
      <div className="vs-chart__head">
        {editable ? (
          <>
            <div className="vs-chart__switch" role="group" aria-label="Rango">
              {CHART_RANGES.map((range) => (
                <button
                  key={range}
                  type="button"
                  aria-pressed={config.range === range}
                  disabled={!canChange}
                  title={disabledReason ?? undefined}
                  onClick={() => change((current) => withRange(current, range))}
                >
                  {RANGE_LABELS[range]}
                </button>
              ))}
            </div>
            <div className="vs-chart__switch" role="group" aria-label="Intervalo">
              {CHART_INTERVALS.map((option) => (
                <button
                  key={option}
                  type="button"
                  aria-pressed={interval === option}
                  disabled={!canChange}
                  title={isIntradayInterval(option) && !INTRADAY_RANGES.includes(config.range) ? 'Pasa el rango a 5 días' : (disabledReason ?? undefined)}
                  onClick={() => change((current) => withInterval(current, option))}
                >
                  {INTERVAL_LABELS[option]}
                </button>
              ))}
            </div>
          </>
        ) : (
          <span className="vs-chart__period">
            {RANGE_LABELS[config.range]} · {INTERVAL_LABELS[interval]}
          </span>
        )}
        {note && (
          <span className="vs-chart__status" role="status">
            {note}
          </span>
        )}
        {stale && (
          <span className="vs-chart__stale">{lastUpdate == null ? 'Sin datos en vivo' : `Sin datos en vivo · último ${formatMarketTime(lastUpdate)}`}</span>
        )}
      </div>
      {views.length === 0 ? (
        <p className="vs-empty">{editable ? 'Agregue un símbolo o una fórmula desde la configuración de la sección.' : 'Este gráfico no tiene series.'}</p>
      ) : (
        <div className="vs-chart__body">
          <ul className="vs-chart__legend" aria-label="Leyenda">
            {views.map((view, index) => (
              <li
                key={index}
                data-series-index={index}
                data-series={view.spec.kind === 'invalid' ? view.spec.expression : view.spec.kind === 'symbol' ? view.spec.symbol : view.spec.expression}
              >
                <span className="vs-chart__swatch" style={{ background: candleMode ? 'var(--text-muted)' : view.color }} aria-hidden="true" />
                <span className="vs-chart__name">{seriesLabel(view.spec)}</span>
                {view.spec.kind === 'invalid' ? (
                  <span className="vs-chart__error">{view.spec.error}</span>
                ) : (
                  <>
                    <span className="vs-chart__value" data-field="value">
                      —
                    </span>
                    <span className="vs-chart__change" data-field="change" data-sign="0">
                      {' '}
                    </span>
                  </>
                )}
              </li>
            ))}
            <li className="vs-chart__time" aria-live="off">
              <span data-field="crosshair-time"> </span>
            </li>
          </ul>
          <div className="vs-chart__canvas" ref={canvasRef} role="img" aria-label={`Gráfico de ${views.map((view) => seriesLabel(view.spec)).join(', ')}`} />
        </div>
      )}
    </div>
  );
}
