// One row of the quote board. It renders once per symbol; ticks never re-render it: the row
// listens to its symbol's atom and writes the new texts into the text nodes it already has
// (a text node's value, no new nodes, no style changes unless the stale mark or the sign of
// the change flips). The row is a grid of fixed columns and height with strict containment
// (quoteBoard.css): a changed number lays out and paints its row alone, and rows off screen
// are skipped by the browser until they scroll into view. The row holds its symbol with its
// element, so while it is off screen the worker sends its updates only every
// OFF_SCREEN_INTERVAL_MS (src/data/offScreen.ts). With hundreds of rows changing every frame
// this is what keeps a tab's main thread cheap (bench/ticks.ts).
import { memo, useLayoutEffect, useRef } from 'react';
import { holdSymbol } from '../../data/worker';
import { subscribeQuote, type QuoteState } from '../../data/store';
import { EMPTY_CELL, quoteCells, type QuoteCells } from './quoteCells';

const FIELDS = ['bid', 'offer', 'last', 'change', 'volume'] as const;
type Field = (typeof FIELDS)[number];

const DIRECTION_CLASS = { [-1]: 'is-down', 0: '', 1: 'is-up' } as const;

interface QuoteRowProps {
  symbol: string;
  onRemove(symbol: string): void;
}

export const QuoteRow = memo(function QuoteRow({ symbol, onRemove }: QuoteRowProps) {
  const rowRef = useRef<HTMLDivElement>(null);
  const cellRefs = useRef<Partial<Record<Field, HTMLSpanElement | null>>>({});

  useLayoutEffect(() => {
    const row = rowRef.current!;
    const texts = FIELDS.map((field) => cellRefs.current[field]!.firstChild as Text);
    const changeCell = cellRefs.current.change!;
    let shown: QuoteCells | null = null;
    let stale: boolean | null = null;
    const show = (state: QuoteState | null) => {
      const cells = quoteCells(state?.quote);
      FIELDS.forEach((field, index) => {
        if (shown?.[field] !== cells[field]) texts[index]!.nodeValue = cells[field];
      });
      if (shown?.direction !== cells.direction) changeCell.className = `quote-board__num ${DIRECTION_CLASS[cells.direction]}`;
      const nextStale = state == null || !state.live;
      if (nextStale !== stale) row.dataset.stale = String(nextStale);
      stale = nextStale;
      shown = cells;
    };
    const stopListening = subscribeQuote(symbol, show);
    const release = holdSymbol(symbol, row);
    return () => {
      stopListening();
      release();
    };
  }, [symbol]);

  const cell = (field: Field) => (
    <span role="cell" className="quote-board__num" data-field={field} ref={(node) => void (cellRefs.current[field] = node)}>
      {EMPTY_CELL}
    </span>
  );
  return (
    <div role="row" className="quote-board__row" ref={rowRef} data-symbol={symbol} data-stale="true">
      <span role="rowheader" className="quote-board__symbol" title={symbol}>
        {symbol}
      </span>
      {cell('bid')}
      {cell('offer')}
      {cell('last')}
      {cell('change')}
      {cell('volume')}
      <span role="cell" className="quote-board__actions">
        <button type="button" className="icon-button quote-board__remove" onClick={() => onRemove(symbol)} aria-label={`Quitar ${symbol}`} title="Quitar">
          ×
        </button>
      </span>
    </div>
  );
});
