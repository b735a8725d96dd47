// The rows of a quote board as the view handles them: a stable id per row (drag and drop,
// React keys), the symbols each row needs, and the config read defensively (a config stored
// as `{symbols, columns}` that reached the view without the schema's migration still shows).
import { migrateQuotesConfig, type QuoteRowConfig, type QuotesConfig } from '../../../../protocol/workspace';
import { compileFormula } from '../../../../lib/formulaValue';

export function rowId(row: QuoteRowConfig): string {
  return row.kind === 'symbol' ? `s:${row.symbol}` : `f:${row.name}`;
}

/** The symbols a row holds: its own, or its formula's legs. */
export function rowSymbols(row: QuoteRowConfig): string[] {
  return row.kind === 'symbol' ? [row.symbol] : compileFormula(row.expression).symbols;
}

export function readQuotesConfig(config: unknown): QuotesConfig {
  const read = migrateQuotesConfig(config) as Partial<QuotesConfig> | null;
  return { rows: Array.isArray(read?.rows) ? read.rows : [], columns: Array.isArray(read?.columns) ? read.columns : [] };
}

/** The label of a row in texts (menus, drag announcements). */
export function rowLabel(row: QuoteRowConfig, display: (symbol: string) => string): string {
  return row.kind === 'symbol' ? display(row.symbol) : row.name;
}
