// The quote board's settings: which columns it shows. None chosen: the defaults of the kinds
// of instruments on the board (src/lib/quoteColumns.ts), which follow the rows as they change.
import { useId } from 'react';
import { QUOTE_COLUMN_LABELS } from '../../../../lib/quoteColumns';
import { QUOTE_COLUMNS, type QuoteColumn } from '../../../../protocol/workspace';

interface ColumnSettingsProps {
  /** The columns saved (empty: the defaults). */
  chosen: readonly QuoteColumn[];
  /** The columns shown now. */
  shown: readonly QuoteColumn[];
  disabledReason: string | null;
  onChange(columns: QuoteColumn[]): void;
  onClose(): void;
}

export function ColumnSettings({ chosen, shown, disabledReason, onChange, onClose }: ColumnSettingsProps) {
  const id = useId();
  const off = disabledReason != null;
  const toggle = (column: QuoteColumn, on: boolean) => {
    const next = new Set(shown);
    if (on) next.add(column);
    else next.delete(column);
    onChange(QUOTE_COLUMNS.filter((c) => next.has(c)));
  };
  return (
    <div className="vs-settings" role="group" aria-labelledby={`${id}-title`}>
      <div className="vs-settings__head">
        <h3 id={`${id}-title`}>Columnas</h3>
        <button type="button" className="button" onClick={onClose}>
          Cerrar
        </button>
      </div>
      <p className="vs-note">
        {chosen.length === 0 ? 'Se muestran las columnas habituales de cada tipo de instrumento de la tabla.' : 'Columnas elegidas para esta tabla.'}
      </p>
      <div className="vs-settings__columns">
        {QUOTE_COLUMNS.map((column) => (
          <label key={column} className="vs-check">
            <input type="checkbox" checked={shown.includes(column)} disabled={off} onChange={(event) => toggle(column, event.target.checked)} />
            {QUOTE_COLUMN_LABELS[column]}
          </label>
        ))}
      </div>
      {chosen.length > 0 && (
        <button type="button" className="button" disabled={off} onClick={() => onChange([])}>
          Usar las columnas habituales
        </button>
      )}
      {off && <p className="vs-note">{disabledReason}</p>}
    </div>
  );
}
