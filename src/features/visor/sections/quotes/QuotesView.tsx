// The quote board section (`Cotizaciones`, issue 18): rows of symbols and formulas with live
// prices. In edit mode, `Agregar símbolo` searches the catalogue as the user types and
// `Agregar fórmula` takes a named expression; rows reorder by drag and leave from their menu;
// the settings choose the columns. In public mode it only shows.
import { useMemo, useState } from 'react';
import { defaultColumns } from '../../../../lib/quoteColumns';
import { symbolKind } from '../../../../lib/symbolNames';
import { MAX_QUOTE_ROWS, type NamedFormula, type QuoteColumn, type QuoteRowConfig } from '../../../../protocol/workspace';
import { SymbolSearch } from '../../../quoteBoard/SymbolSearch';
import { FormulaForm } from '../formula/FormulaForm';
import type { SectionViewProps } from '../types';
import { ColumnSettings } from './ColumnSettings';
import { QuoteTable } from './QuoteTable';
import { readQuotesConfig, rowId } from './rows';
import '../../../quoteBoard/quoteBoard.css';
import './quotes.css';

type Adding = 'symbol' | 'formula' | null;

export function QuotesView({ section, editable, onConfigChange, settingsOpen, onSettingsClose, disabledReason }: SectionViewProps<'quotes'>) {
  const config = readQuotesConfig(section.config);
  const { rows } = config;
  const [adding, setAdding] = useState<Adding>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const columns = useMemo<QuoteColumn[]>(
    () => (config.columns.length > 0 ? config.columns : defaultColumns(rows.map((row) => (row.kind === 'symbol' ? symbolKind(row.symbol) : 'formula')))),
    [config.columns, rows],
  );

  // Every change goes through an updater of the latest config: a search answers after a wait,
  // so two symbols submitted in quick succession each add to what the other left, not to the
  // rows of an older render.
  const changeRows = (update: (current: QuoteRowConfig[]) => QuoteRowConfig[]) =>
    onConfigChange((current) => {
      const read = readQuotesConfig(current);
      const next = update(read.rows);
      return next === read.rows ? current : { ...read, rows: next };
    });
  const full = rows.length >= MAX_QUOTE_ROWS ? `Una tabla no puede superar ${MAX_QUOTE_ROWS} filas` : null;
  const addRow = (row: QuoteRowConfig) =>
    changeRows((current) => (current.length >= MAX_QUOTE_ROWS || current.some((other) => rowId(other) === rowId(row)) ? current : [...current, row]));
  const addSymbol = (symbol: string) => {
    if (rows.some((row) => row.kind === 'symbol' && row.symbol === symbol)) return setNotice(`${symbol} ya está en la tabla`);
    setNotice(null);
    addRow({ kind: 'symbol', symbol });
  };
  const addFormula = (formula: NamedFormula) => {
    setNotice(null);
    addRow({ kind: 'formula', ...formula });
  };
  const formulaNames = rows.flatMap((row) => (row.kind === 'formula' ? [row.name] : []));
  const canChange = editable && disabledReason == null;

  return (
    <div className="vs-quotes">
      {editable && (
        <div className="vs-toolbar">
          <button type="button" className="button" aria-expanded={adding === 'symbol'} onClick={() => setAdding(adding === 'symbol' ? null : 'symbol')}>
            Agregar símbolo
          </button>
          <button type="button" className="button" aria-expanded={adding === 'formula'} onClick={() => setAdding(adding === 'formula' ? null : 'formula')}>
            Agregar fórmula
          </button>
          {disabledReason != null && <span className="vs-note">{disabledReason}</span>}
        </div>
      )}
      {editable && adding === 'symbol' && <SymbolSearch onAdd={addSymbol} disabledReason={disabledReason ?? full} autoFocus />}
      {editable && adding === 'formula' && (
        <FormulaForm
          taken={formulaNames}
          submitLabel="Agregar"
          disabledReason={disabledReason ?? full}
          onSubmit={addFormula}
          onCancel={() => setAdding(null)}
        />
      )}
      {notice && <p className="vs-note">{notice}</p>}
      {editable && settingsOpen && (
        <ColumnSettings
          chosen={config.columns}
          shown={columns}
          disabledReason={disabledReason}
          onChange={(next) => onConfigChange((current) => ({ ...readQuotesConfig(current), columns: next }))}
          onClose={onSettingsClose}
        />
      )}
      {rows.length === 0 ? (
        <p className="vs-empty">{editable ? 'Agregue un símbolo para ver sus precios.' : 'Esta tabla no tiene filas.'}</p>
      ) : (
        <QuoteTable rows={rows} columns={columns} editable={canChange} onRowsChange={changeRows} label={section.title || 'Cotizaciones'} />
      )}
    </div>
  );
}
