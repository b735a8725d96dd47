// The tab's half of paced ticks (issue 5): batches from the worker are merged (latest state
// per symbol) and applied in the next animation frame, once per frame; after applying, the
// tab tells the worker, which only then sends the next batch. So the tab never applies more
// than one batch per frame, never queues stale ones, and a hidden tab (no frames) costs
// nothing until it shows again.
import type { Quote } from '../lib/quote';

export interface PaintPacerOptions {
  /** Writes the quotes into the store (cells update in this frame). */
  apply(quotes: Record<string, Quote>): void;
  /** Tells the worker the batch was applied. */
  painted(): void;
  /** requestAnimationFrame. */
  requestFrame(callback: () => void): void;
}

export interface PaintPacer {
  receive(quotes: Record<string, Quote>): void;
}

export function createPaintPacer(options: PaintPacerOptions): PaintPacer {
  let pending: Record<string, Quote> | null = null;

  const frame = () => {
    const quotes = pending;
    pending = null;
    if (quotes) options.apply(quotes);
    options.painted();
  };

  return {
    receive(quotes) {
      if (pending) {
        Object.assign(pending, quotes);
        return;
      }
      pending = quotes;
      options.requestFrame(frame);
    },
  };
}
