// The tab's half of paced ticks (issue 5): batches from the worker are merged (latest state
// per symbol) and applied in the next animation frame, once per frame; after applying, the
// tab tells the worker, which only then sends the next batch. So the tab never applies more
// than one batch per frame, never queues stale ones, and a hidden tab (no frames) costs
// nothing until it shows again. Batches are applied at most every `minInterval` ms (the
// app: TICK_PAINT_INTERVAL_MS): frames in between keep running and only skip the ticks, which
// wait, merged, for the next due frame.
import type { Quote } from '../lib/quote';

export interface PaintPacerOptions {
  /** Writes the quotes into the store (cells update in this frame). */
  apply(quotes: Record<string, Quote>): void;
  /** Tells the worker the batch was applied. */
  painted(): void;
  /** requestAnimationFrame (its callback gets the frame's time, ms). */
  requestFrame(callback: (time: number) => void): void;
  /** The shortest time between two applied batches, ms (0: every frame). */
  minInterval?: number;
}

/** The tab applies ticks at most 20 times a second (every 50 ms): a number changing faster cannot be read, and each frame of changed numbers costs style, layout and paint (bench:visor). */
export const TICK_PAINT_INTERVAL_MS = 1000 / 20;
/** A frame this early is still taken as due (frame times jitter). */
const FRAME_SLACK_MS = 2;

export interface PaintPacer {
  receive(quotes: Record<string, Quote>): void;
}

export function createPaintPacer(options: PaintPacerOptions): PaintPacer {
  let pending: Record<string, Quote> | null = null;
  let lastApplied = Number.NEGATIVE_INFINITY;
  const minInterval = options.minInterval ?? 0;

  const frame = (time: number) => {
    if (pending && time - lastApplied < minInterval - FRAME_SLACK_MS) {
      options.requestFrame(frame);
      return;
    }
    const quotes = pending;
    pending = null;
    lastApplied = time;
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
