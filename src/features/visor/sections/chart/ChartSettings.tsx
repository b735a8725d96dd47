// The Gráfico section's settings: its series (symbols found with the board's search, and
// formulas), each removable, and the range and interval.
import { useId, useRef, useState, type FormEvent } from 'react';
import { chartSeriesSpec } from '../../../../lib/candles';
import { lineColor } from '../../../../lib/palette';
import { CHART_INTERVALS, CHART_RANGES, type ChartConfig, type ChartInterval, type ChartRange } from '../../../../protocol/workspace';
import { SymbolSearch } from '../../../quoteBoard/SymbolSearch';
import { useSymbolCheck } from '../formula/useSymbolCheck';
import { INTERVAL_LABELS, MAX_CHART_SERIES, RANGE_LABELS, withInterval, withRange } from './chartConfig';
import { seriesLabel } from './chartFormat';
import '../../../quoteBoard/quoteBoard.css';

interface ChartSettingsProps {
  config: ChartConfig;
  disabledReason: string | null;
  /** Changes the config: `update` gets the latest one (not this render's). */
  onChange(update: (current: ChartConfig) => ChartConfig): void;
  onClose(): void;
}

/** Adds a series unless the chart is full or has it already. */
function addSeries(current: ChartConfig, text: string): ChartConfig {
  if (current.series.length >= MAX_CHART_SERIES || current.series.includes(text)) return current;
  return { ...current, series: [...current.series, text] };
}

function FormulaSeriesForm({ disabledReason, onAdd }: { disabledReason: string | null; onAdd(expression: string): void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  // Bumped by each submit and each edit: a symbol check's answer for an older text is dropped.
  const turn = useRef(0);
  const checkSymbols = useSymbolCheck();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (checking) return;
    const spec = chartSeriesSpec(text);
    if (spec.kind !== 'formula') return setError(spec.kind === 'invalid' ? spec.error : 'Escriba una fórmula con operadores, p. ej. BYMA:AL30/BYMA:AL30D');
    // Its symbols must be in the catalogue, said here before the series is added.
    const mine = ++turn.current;
    setChecking(true);
    const unknown = await checkSymbols(spec.expression, spec.symbols);
    if (mine !== turn.current) return;
    setChecking(false);
    if (unknown) return setError(unknown);
    onAdd(spec.expression);
    setText('');
    setError(null);
  };
  return (
    <form className="vs-formula-form" onSubmit={(event) => void submit(event)} aria-busy={checking}>
      <div className="vs-formula-form__field">
        <label htmlFor={id}>Fórmula</label>
        <input
          id={id}
          value={text}
          disabled={disabledReason != null}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
            turn.current += 1;
            setChecking(false);
          }}
          placeholder="BYMA:AL30/BYMA:AL30D"
          autoComplete="off"
          aria-invalid={error != null}
        />
      </div>
      <button type="submit" className="button" disabled={disabledReason != null || text.trim() === '' || checking}>
        Agregar fórmula
      </button>
      {error && <p className="form-error">{error}</p>}
    </form>
  );
}

export function ChartSettings({ config, disabledReason, onChange, onClose }: ChartSettingsProps) {
  const [notice, setNotice] = useState<string | null>(null);
  const full = config.series.length >= MAX_CHART_SERIES ? `Un gráfico no puede superar ${MAX_CHART_SERIES} series` : null;
  const off = disabledReason ?? full;
  const rangeId = useId();
  const intervalId = useId();
  const add = (text: string) => {
    if (config.series.includes(text)) return setNotice(`${text} ya está en el gráfico`);
    setNotice(null);
    onChange((current) => addSeries(current, text));
  };

  return (
    <div className="vs-settings vs-chart__settings" role="group" aria-label="Configuración del gráfico">
      <div className="vs-settings__head">
        <h3>Gráfico</h3>
        <button type="button" className="button" onClick={onClose}>
          Cerrar
        </button>
      </div>
      <div className="vs-chart__settings-period">
        <label htmlFor={rangeId}>Rango</label>
        <select
          id={rangeId}
          value={config.range}
          disabled={disabledReason != null}
          onChange={(event) => onChange((current) => withRange(current, event.target.value as ChartRange))}
        >
          {CHART_RANGES.map((range) => (
            <option key={range} value={range}>
              {RANGE_LABELS[range]}
            </option>
          ))}
        </select>
        <label htmlFor={intervalId}>Intervalo</label>
        <select
          id={intervalId}
          value={config.interval}
          disabled={disabledReason != null}
          onChange={(event) => onChange((current) => withInterval(current, event.target.value as ChartInterval))}
        >
          {CHART_INTERVALS.map((interval) => (
            <option key={interval} value={interval}>
              {INTERVAL_LABELS[interval]}
            </option>
          ))}
        </select>
      </div>
      <h4>Series</h4>
      {config.series.length === 0 ? (
        <p className="vs-note">Sin series todavía.</p>
      ) : (
        <ul className="vs-settings__list">
          {config.series.map((text, index) => {
            const label = seriesLabel(chartSeriesSpec(text));
            return (
              <li key={text} className="vs-settings__item">
                <span>
                  <span className="vs-chart__swatch" style={{ background: lineColor(index) }} aria-hidden="true" /> <code>{label}</code>
                </span>
                <button
                  type="button"
                  className="button"
                  disabled={disabledReason != null || config.series.length === 1}
                  title={config.series.length === 1 ? 'El gráfico necesita al menos una serie' : undefined}
                  aria-label={`Quitar ${label}`}
                  onClick={() => onChange((current) => ({ ...current, series: current.series.filter((other) => other !== text) }))}
                >
                  Quitar
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <SymbolSearch onAdd={add} disabledReason={off} />
      <FormulaSeriesForm disabledReason={off} onAdd={add} />
      {notice && <p className="vs-note">{notice}</p>}
    </div>
  );
}
