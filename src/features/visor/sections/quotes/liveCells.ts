// Writes a quote into a row's cells outside React (issue 18, as the /test board's QuoteRow):
// a cell's text node changes only when its text does, the colour of a change cell only when
// its sign flips, and a changed number flashes (flasher.ts; none with prefers-reduced-motion).
import { cellText, changeDirection, EMPTY_CELL, FLASHING_COLUMNS, SIGNED_COLUMNS } from '../../../../lib/quoteColumns';
import { formatMarketTime } from '../../../../lib/numberFormat';
import type { Quote } from '../../../../lib/quote';
import type { ValueUnit } from '../../../../lib/valueChange';
import type { QuoteColumn } from '../../../../protocol/workspace';
import { createFlasher } from './flasher';

const reducedMotion = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

const flasher = createFlasher();

interface LiveCell {
  column: QuoteColumn;
  node: HTMLElement;
  text: Text;
  shown: string | null;
  sign: number;
}

export interface LiveCells {
  /** Shows the quote (null: nothing known yet), marks the row stale or not, and the note beside its name ('' none). */
  show(quote: Quote | null | undefined, stale: boolean, note: string): void;
}

/** The note beside a stale row's name: the time of its last value. */
export function staleNote(time: number | null | undefined): string {
  return typeof time === 'number' && Number.isFinite(time) && time > 0 ? `último ${formatMarketTime(time)}` : 'sin datos';
}

export function liveCells(
  row: HTMLElement,
  nodes: ReadonlyMap<QuoteColumn, HTMLElement>,
  columns: readonly QuoteColumn[],
  note: HTMLElement,
  decimals: number,
  /** What the row's value is: a formula's unit; a symbol's is a price. */
  unit: ValueUnit = 'price',
): LiveCells {
  const cells: LiveCell[] = columns.map((column) => {
    const node = nodes.get(column)!;
    return { column, node, text: node.firstChild as Text, shown: null, sign: 0 };
  });
  const noteText = note.firstChild as Text;
  let stale: boolean | null = null;
  let shownNote: string | null = null;
  return {
    show(quote, nextStale, nextNote) {
      const now = new Date();
      const direction = changeDirection(quote);
      for (const cell of cells) {
        const text = cellText(cell.column, quote, decimals, now, unit);
        if (text !== cell.shown) {
          cell.text.nodeValue = text;
          if (cell.shown !== null && cell.shown !== EMPTY_CELL && text !== EMPTY_CELL && FLASHING_COLUMNS.has(cell.column) && !reducedMotion?.matches)
            flasher.flash(cell.node);
          cell.shown = text;
        }
        if (SIGNED_COLUMNS.has(cell.column) && cell.sign !== direction) {
          cell.sign = direction;
          cell.node.dataset.sign = String(direction);
        }
      }
      if (nextStale !== stale) row.dataset.stale = String(nextStale);
      stale = nextStale;
      if (nextNote !== shownNote) {
        noteText.nodeValue = nextNote;
        // A row without a note shows its name alone, in the middle of the row.
        note.hidden = nextNote.trim() === '';
        note.title = nextStale && nextNote ? `No está en vivo (${nextNote})` : nextNote;
        shownNote = nextNote;
      }
    },
  };
}
