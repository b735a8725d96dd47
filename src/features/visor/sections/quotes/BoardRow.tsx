// One row of a visor's quote board: a symbol or a named formula. It renders once per change
// of its config; ticks never re-render it: it listens to its symbols' atoms and writes the
// texts into the cells it already has (liveCells.ts). It holds its symbols with its element,
// so while it is out of view the worker sends them at the off-screen cadence. The DOM hooks
// are the /test board's (bench/ticks reads them): role="row" with data-symbol and
// data-stale, cells with data-field as direct children.
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { memo, useCallback, useLayoutEffect, useRef } from 'react';
import { isStaleQuote, subscribeQuote, subscribeQuotes } from '../../../../data/store';
import { holdSymbol } from '../../../../data/worker';
import { compileFormula, formulaProblem, formulaQuote, formulaValue } from '../../../../lib/formulaValue';
import { EMPTY_CELL } from '../../../../lib/quoteColumns';
import { displaySymbol } from '../../../../lib/symbolNames';
import { UNIT_LABELS } from '../../../../lib/valueChange';
import type { MarketName } from '../../../../protocol/market';
import type { QuoteColumn, QuoteRowConfig } from '../../../../protocol/workspace';
import { Menu } from '../../../../ui/Menu';
import { liveCells, staleNote, type LiveCells } from './liveCells';

/** Cell names as the /test rows write them (bench/ticks reads `offer`). */
const DOM_FIELD: Partial<Record<QuoteColumn, string>> = { ask: 'offer' };

export const ROW_HEIGHT = 36;

interface BoardRowProps {
  id: string;
  row: QuoteRowConfig;
  columns: readonly QuoteColumn[];
  decimals: number;
  /** The market socket is open: otherwise every row is stale. */
  marketLive: boolean;
  /** Markets not running now (stopped, silent, reconnecting, closed): their symbols' rows are stale. */
  staleMarkets: ReadonlySet<MarketName>;
  /** Offset of the row in the virtual list, px. */
  start: number;
  /** Drag and the row menu are shown (edit mode, server reachable). */
  editable: boolean;
  /** Why the row cannot be dragged now (a sorted view), or null. */
  dragOff: string | null;
  onRemove(id: string): void;
}

/** Subscribes a symbol row: its atom's state into the cells. */
function followSymbol(symbol: string, cells: LiveCells, marketLive: boolean, staleMarkets: ReadonlySet<MarketName>): () => void {
  return subscribeQuote(symbol, (state) => {
    const stale = !marketLive || isStaleQuote(state, staleMarkets);
    cells.show(state?.quote, stale, stale ? staleNote(state?.quote.md.LA?.date) : '');
  });
}

/** Subscribes a formula row: its legs' atoms; each batch that moves any of them computes the value again. */
function followFormula(expression: string, cells: LiveCells, marketLive: boolean, staleMarkets: ReadonlySet<MarketName>): () => void {
  const formula = compileFormula(expression);
  if (!formula.ok) {
    cells.show(null, false, formula.error);
    return () => {};
  }
  return subscribeQuotes(formula.symbols, (states) => {
    const result = formulaValue(formula, (symbol) => states.get(symbol)?.quote);
    const stale = !marketLive || formula.symbols.some((symbol) => isStaleQuote(states.get(symbol), staleMarkets));
    cells.show(formulaQuote(result), stale, formulaProblem(result) ?? (stale ? staleNote(result.time) : ''));
  });
}

export const BoardRow = memo(function BoardRow({ id, row, columns, decimals, marketLive, staleMarkets, start, editable, dragOff, onRemove }: BoardRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: !editable || dragOff != null,
  });
  const rowRef = useRef<HTMLDivElement | null>(null);
  const noteRef = useRef<HTMLSpanElement>(null);
  const cellRefs = useRef(new Map<QuoteColumn, HTMLElement>());
  const setRowRef = useCallback(
    (node: HTMLDivElement | null) => {
      rowRef.current = node;
      setNodeRef(node);
    },
    [setNodeRef],
  );

  const subject = row.kind === 'symbol' ? row.symbol : row.expression;
  const unit = row.kind === 'formula' ? row.unit : 'price';
  const columnsKey = columns.join(',');
  useLayoutEffect(() => {
    const element = rowRef.current!;
    const cells = liveCells(element, cellRefs.current, columnsKey ? (columnsKey.split(',') as QuoteColumn[]) : [], noteRef.current!, decimals, unit);
    const symbols = row.kind === 'symbol' ? [subject] : compileFormula(subject).symbols;
    const stop = row.kind === 'symbol' ? followSymbol(subject, cells, marketLive, staleMarkets) : followFormula(subject, cells, marketLive, staleMarkets);
    const releases = symbols.map((symbol) => holdSymbol(symbol, element));
    return () => {
      stop();
      releases.forEach((release) => release());
    };
  }, [row.kind, subject, unit, columnsKey, decimals, marketLive, staleMarkets]);

  const label = row.kind === 'symbol' ? displaySymbol(row.symbol) : row.name;
  const full = row.kind === 'symbol' ? row.symbol : `${row.name} = ${row.expression} · ${UNIT_LABELS[row.unit]}`;
  return (
    <div
      role="row"
      ref={setRowRef}
      className={`vs-row${isDragging ? ' vs-row--dragging' : ''}`}
      data-symbol={row.kind === 'symbol' ? row.symbol : undefined}
      data-formula={row.kind === 'formula' ? row.name : undefined}
      data-unit={row.kind === 'formula' ? row.unit : undefined}
      data-stale="true"
      // `top`, not a transform: dnd-kit measures rows without their transforms (its own).
      style={{ top: start, transform: CSS.Translate.toString(transform), transition }}
    >
      <span role="cell" className="vs-row__handle">
        {editable && (
          <button
            type="button"
            className="icon-button vs-row__drag"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`Mover ${label}`}
            title={dragOff ?? 'Arrastrar para ordenar (o Espacio y flechas)'}
            disabled={dragOff != null}
          >
            <span aria-hidden="true">⠿</span>
          </button>
        )}
      </span>
      <span role="rowheader" className="vs-row__name">
        <span className="vs-row__label" title={full}>
          {row.kind === 'formula' && (
            <span className="vs-row__fx" aria-label="Fórmula">
              ƒ{' '}
            </span>
          )}
          {label}
        </span>
        <span className="vs-row__note" ref={noteRef} hidden>
          {' '}
        </span>
      </span>
      {columns.map((column) => (
        <span
          key={column}
          role="cell"
          className="vs-row__num"
          data-field={DOM_FIELD[column] ?? column}
          ref={(node) => {
            if (node) cellRefs.current.set(column, node);
            else cellRefs.current.delete(column);
          }}
        >
          {EMPTY_CELL}
        </span>
      ))}
      <span role="cell" className="vs-row__actions">
        {editable && <Menu label={`Acciones de ${label}`} items={[{ label: 'Quitar', onSelect: () => onRemove(id) }]} />}
      </span>
    </div>
  );
});
