// The rows of a quote board: a header that sorts the view (by the values on screen when
// clicked; not saved), rows out of view not rendered (@tanstack/react-virtual) while the
// board holds their symbols at the worker's off-screen cadence, and rows reordered by drag
// or by keyboard (dnd-kit sortable: Space, arrows, Space).
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { restrictToVerticalAxis } from './dragModifiers';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { readQuote, useMarketStatus, useStaleMarkets } from '../../../../data/store';
import { holdSymbol } from '../../../../data/worker';
import { compileFormula, formulaQuote, formulaValue } from '../../../../lib/formulaValue';
import { DEFAULT_DECIMALS } from '../../../../lib/numberFormat';
import { cellNumber, QUOTE_COLUMN_HEADERS, QUOTE_COLUMN_LABELS } from '../../../../lib/quoteColumns';
import { displaySymbol } from '../../../../lib/symbolNames';
import type { QuoteColumn, QuoteRowConfig } from '../../../../protocol/workspace';
import { BoardRow, ROW_HEIGHT } from './BoardRow';
import { rowId, rowLabel, rowSymbols } from './rows';
import { useDecimals } from './useDecimals';

type SortKey = QuoteColumn | 'name';
interface Sort {
  key: SortKey;
  descending: boolean;
  /** Row ids in the sorted order, computed at the click. */
  order: string[];
}

/** A row's number in a column now (a formula's from its legs), for sorting. */
function valueNow(row: QuoteRowConfig, column: QuoteColumn, now: Date): number | null {
  if (row.kind === 'symbol') return cellNumber(column, readQuote(row.symbol)?.quote, now);
  const formula = compileFormula(row.expression);
  if (!formula.ok) return null;
  return cellNumber(column, formulaQuote(formulaValue(formula, (symbol) => readQuote(symbol)?.quote)), now, row.unit);
}

function sortedIds(rows: readonly QuoteRowConfig[], key: SortKey, descending: boolean): string[] {
  const now = new Date();
  const keyed = rows.map((row) => ({
    id: rowId(row),
    text: rowLabel(row, displaySymbol),
    value: key === 'name' ? null : valueNow(row, key, now),
  }));
  keyed.sort((a, b) => {
    if (key === 'name') return a.text.localeCompare(b.text, 'es') * (descending ? -1 : 1);
    // Rows without a value go last either way.
    if (a.value == null || b.value == null) return a.value == null ? (b.value == null ? 0 : 1) : -1;
    return (a.value - b.value) * (descending ? -1 : 1);
  });
  return keyed.map((entry) => entry.id);
}

interface SideScroll {
  /** The content is wider than the element. */
  overflow: boolean;
  /** It is scrolled sideways (scrollLeft > 0). */
  scrolled: boolean;
}

/** How the element scrolls sideways, followed as it and its content resize and as it scrolls. */
function useSideScroll(ref: RefObject<HTMLElement | null>): SideScroll {
  const [state, setState] = useState<SideScroll>({ overflow: false, scrolled: false });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const set = (next: Partial<SideScroll>) =>
      setState((last) =>
        (next.overflow ?? last.overflow) === last.overflow && (next.scrolled ?? last.scrolled) === last.scrolled ? last : { ...last, ...next },
      );
    // A scroll (vertical ones too, every frame of them) reads scrollLeft only; the widths are
    // read when the element or its content resizes.
    const onScroll = () => set({ scrolled: element.scrollLeft > 0 });
    const onResize = () => set({ overflow: element.scrollWidth > element.clientWidth + 1, scrolled: element.scrollLeft > 0 });
    onResize();
    element.addEventListener('scroll', onScroll, { passive: true });
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(onResize) : null;
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, [ref]);
  return state;
}

interface QuoteTableProps {
  rows: readonly QuoteRowConfig[];
  columns: readonly QuoteColumn[];
  /** Drag and row menus shown. */
  editable: boolean;
  /** Changes the rows: `update` gets the latest rows (not this render's) and returns the next. */
  onRowsChange(update: (rows: QuoteRowConfig[]) => QuoteRowConfig[]): void;
  label: string;
}

export function QuoteTable({ rows, columns, editable, onRowsChange, label }: QuoteTableProps) {
  const marketLive = useMarketStatus().state === 'open';
  const staleMarkets = useStaleMarkets();
  const decimalsOf = useDecimals();
  const [sort, setSort] = useState<Sort | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const side = useSideScroll(scrollRef);

  const byId = useMemo(() => new Map(rows.map((row) => [rowId(row), row])), [rows]);
  const ids = useMemo(() => rows.map(rowId), [rows]);
  // A sorted view keeps its order; rows added since go last, removed ones drop out.
  const shownIds = useMemo(
    () => (sort ? [...sort.order.filter((id) => byId.has(id)), ...ids.filter((id) => !sort.order.includes(id))] : ids),
    [sort, ids, byId],
  );

  // Every symbol of the board is held while it shows, off screen unless a rendered row shows it.
  const symbolsKey = useMemo(() => [...new Set(rows.flatMap(rowSymbols))].join('\n'), [rows]);
  useEffect(() => {
    if (!symbolsKey) return;
    const releases = symbolsKey.split('\n').map((symbol) => holdSymbol(symbol, 'off-screen'));
    return () => releases.forEach((release) => release());
  }, [symbolsKey]);

  // The virtualizer keeps its state outside React and re-renders this component itself;
  // nothing memoizes this component (no React Compiler in the build).
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count: shownIds.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => shownIds[index]!,
  });

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onRowsChange((current) => {
      const from = current.findIndex((row) => rowId(row) === String(active.id));
      const to = current.findIndex((row) => rowId(row) === String(over.id));
      return from < 0 || to < 0 ? current : arrayMove([...current], from, to);
    });
  };
  const nameOf = (id: unknown) => {
    const row = byId.get(String(id));
    return row ? rowLabel(row, displaySymbol) : String(id);
  };
  const placeOf = (id: unknown) => `la posición ${ids.indexOf(String(id)) + 1} de ${ids.length}`;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Se levantó ${nameOf(active.id)}, en ${placeOf(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} sobre ${placeOf(over.id)}.` : `${nameOf(active.id)} fuera de la tabla.`),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} quedó en ${placeOf(over.id)}.` : `${nameOf(active.id)} volvió a su lugar.`),
    onDragCancel: ({ active }) => `Se canceló: ${nameOf(active.id)} volvió a su lugar.`,
  };
  const onRemove = useCallback(
    (id: string) =>
      onRowsChange((current) => {
        const next = current.filter((row) => rowId(row) !== id);
        return next.length === current.length ? current : next;
      }),
    [onRowsChange],
  );

  const clickHeader = (key: SortKey) => {
    // First click: largest first (names A to Z), second: the other way, third: the saved order.
    if (sort?.key === key && sort.descending === (key !== 'name')) setSort({ key, descending: key === 'name', order: sortedIds(rows, key, key === 'name') });
    else if (sort?.key === key) setSort(null);
    else setSort({ key, descending: key !== 'name', order: sortedIds(rows, key, key !== 'name') });
  };
  const ariaSort = (key: SortKey) => (sort?.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none');
  const arrow = (key: SortKey) => (sort?.key === key ? (sort.descending ? ' ▼' : ' ▲') : '');

  const template = `1.9rem minmax(8.5rem, 2fr) repeat(${columns.length}, minmax(6.2rem, 1fr)) 2.4rem`;
  const style = { '--vs-columns': template, '--vs-min-width': `${12.8 + columns.length * 6.2}rem` } as CSSProperties;
  const dragOff = sort ? 'Vuelva al orden guardado (clic en el encabezado) para mover filas' : null;

  return (
    <div className="vs-table-scroll" ref={scrollRef} data-overflow={side.overflow} data-scrolled={side.scrolled} data-editable={editable}>
      <div role="table" className="vs-table" aria-label={label} aria-rowcount={rows.length + 1} data-live={marketLive} style={style}>
        <div role="rowgroup" className="vs-table__head">
          <div role="row" className="vs-row vs-row--head">
            <span role="columnheader" className="vs-row__handle">
              <span className="visually-hidden">Mover</span>
            </span>
            <span role="columnheader" aria-sort={ariaSort('name')} className="vs-row__name">
              <button type="button" className="vs-sort" onClick={() => clickHeader('name')}>
                Símbolo{arrow('name')}
              </button>
            </span>
            {columns.map((column) => (
              <span role="columnheader" key={column} aria-sort={ariaSort(column)}>
                <button type="button" className="vs-sort" onClick={() => clickHeader(column)} title={`Ordenar por ${QUOTE_COLUMN_LABELS[column]}`}>
                  {QUOTE_COLUMN_HEADERS[column]}
                  {arrow(column)}
                </button>
              </span>
            ))}
            <span role="columnheader" className="vs-row__actions">
              <span className="visually-hidden">Acciones</span>
            </span>
          </div>
        </div>
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          modifiers={[restrictToVerticalAxis]}
          onDragEnd={onDragEnd}
          accessibility={{
            announcements,
            // dnd-kit's live region and instructions, outside the table: a table holds rows only.
            container: document.body,
            screenReaderInstructions: { draggable: 'Para mover: Espacio para levantar, flechas para mover, Espacio para soltar, Escape para cancelar.' },
          }}
        >
          <SortableContext items={shownIds} strategy={verticalListSortingStrategy}>
            <div role="rowgroup" className="vs-table__body" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => {
                const id = shownIds[item.index]!;
                const row = byId.get(id)!;
                return (
                  <BoardRow
                    key={id}
                    id={id}
                    row={row}
                    columns={columns}
                    decimals={row.kind === 'symbol' ? decimalsOf(row.symbol) : DEFAULT_DECIMALS}
                    marketLive={marketLive}
                    staleMarkets={staleMarkets}
                    start={item.start}
                    editable={editable}
                    dragOff={dragOff}
                    onRemove={onRemove}
                  />
                );
              })}
            </div>
          </SortableContext>
        </DndContext>
      </div>
    </div>
  );
}
