// Writes a quote into a row's cells outside React (issue 18, as the /test board's QuoteRow):
// a cell's text node changes only when its text does, the colour of a change cell only when
// its sign flips, and a changed number flashes once (Web Animations on the cell's ::after,
// opacity only; none with prefers-reduced-motion).
import { cellText, changeDirection, EMPTY_CELL, FLASHING_COLUMNS, SIGNED_COLUMNS } from '../../../../lib/quoteColumns';
import { formatMarketTime } from '../../../../lib/numberFormat';
import type { Quote } from '../../../../lib/quote';
import type { QuoteColumn } from '../../../../protocol/workspace';

const FLASH: Keyframe[] = [{ opacity: 0.2 }, { opacity: 0 }];
const FLASH_OPTIONS: KeyframeAnimationOptions = { duration: 500, easing: 'ease-out', pseudoElement: '::after' };
const reducedMotion = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

interface LiveCell {
  column: QuoteColumn;
  node: HTMLElement;
  text: Text;
  shown: string | null;
  sign: number;
  flash: Animation | null;
}

export interface LiveCells {
  /** Shows the quote (null: nothing known yet), marks the row stale or not, and the note beside its name ('' none). */
  show(quote: Quote | null | undefined, stale: boolean, note: string): void;
}

/** The note beside a stale row's name: the time of its last value. */
export function staleNote(time: number | null | undefined): string {
  return typeof time === 'number' && Number.isFinite(time) && time > 0 ? `último ${formatMarketTime(time)}` : 'sin datos';
}

function flash(cell: LiveCell) {
  if (reducedMotion?.matches || typeof cell.node.animate !== 'function') return;
  // A flash still running is left to finish: a number changing every frame pulses twice a
  // second instead of glowing, and the board does not restart an animation per tick.
  if (cell.flash?.playState === 'running') return;
  if (cell.flash) cell.flash.play();
  else cell.flash = cell.node.animate(FLASH, FLASH_OPTIONS);
}

export function liveCells(
  row: HTMLElement,
  nodes: ReadonlyMap<QuoteColumn, HTMLElement>,
  columns: readonly QuoteColumn[],
  note: HTMLElement,
  decimals: number,
): LiveCells {
  const cells: LiveCell[] = columns.map((column) => {
    const node = nodes.get(column)!;
    return { column, node, text: node.firstChild as Text, shown: null, sign: 0, flash: null };
  });
  const noteText = note.firstChild as Text;
  let stale: boolean | null = null;
  let shownNote: string | null = null;
  return {
    show(quote, nextStale, nextNote) {
      const now = new Date();
      const direction = changeDirection(quote);
      for (const cell of cells) {
        const text = cellText(cell.column, quote, decimals, now);
        if (text !== cell.shown) {
          cell.text.nodeValue = text;
          if (cell.shown !== null && cell.shown !== EMPTY_CELL && text !== EMPTY_CELL && FLASHING_COLUMNS.has(cell.column)) flash(cell);
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
        note.title = nextStale && nextNote ? `No está en vivo (${nextNote})` : nextNote;
        shownNote = nextNote;
      }
    },
  };
}
