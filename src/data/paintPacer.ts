// The tab's half of paced ticks (issue 5): batches from the worker are merged (latest state
// per symbol) and applied in the next animation frame, once per frame; after applying, the
// tab tells the worker ('painted'), which only then sends the next batch. So the tab never
// applies more than one batch per frame, never queues stale ones, and a hidden tab (no frames)
// costs nothing until it shows again. Batches are applied at most every `minInterval` ms (the
// app: TICK_PAINT_INTERVAL_MS): frames in between keep running and only skip the ticks, which
// wait, merged, for the next due frame. With an interval, 'painted' leaves `readyAhead` ms
// before the next due frame, not right after the frame that applied: the worker's batch then
// holds what changed until just before the frame that shows it. Sent at once, it left a tick
// that came just after it waiting a whole interval in the worker and another in the tab
// (bench:visor, one tab: tick-to-paint p50 ~75 ms → ~45 ms at 20 a second).
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
  /**
   * How long before the next due frame the tab asks for its next batch, ms (with a
   * minInterval): the worker's batch then holds what changed until just before that frame,
   * not what changed until just after the last one.
   */
  readyAhead?: number;
  /** setTimeout. */
  setTimer?: (callback: () => void, ms: number) => void;
}

/**
 * The tab applies ticks at most 12 times a second (every 83.3 ms, every fifth frame at 60 Hz): a
 * number changing faster cannot be read, and each frame of changed numbers costs style, layout
 * and paint. bench:visor, one tab, builds alternated: 20 a second cost 5–8 points of a core more
 * than 15; 15 a second 14.7–16.0 % against 13.6–14.1 % at 12, tick-to-paint p95 57–61 against
 * 54–57 ms ('painted' leaves ahead of the due frame, so what is painted is as fresh either way).
 */
export const TICK_PAINT_INTERVAL_MS = 1000 / 12;
/**
 * The tab asks for its next batch this long before the next due frame: a frame and a bit,
 * time for the request to reach the worker and the batch to come back.
 */
export const READY_AHEAD_MS = 20;
/** A frame this early is still taken as due (frame times jitter). */
const FRAME_SLACK_MS = 2;

export interface PaintPacer {
  receive(quotes: Record<string, Quote>): void;
}

export function createPaintPacer(options: PaintPacerOptions): PaintPacer {
  let pending: Record<string, Quote> | null = null;
  let lastApplied = Number.NEGATIVE_INFINITY;
  const minInterval = options.minInterval ?? 0;
  const readyAfter = minInterval - (options.readyAhead ?? READY_AHEAD_MS);
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => void setTimeout(callback, ms));

  const frame = (time: number) => {
    if (pending && time - lastApplied < minInterval - FRAME_SLACK_MS) {
      options.requestFrame(frame);
      return;
    }
    const quotes = pending;
    pending = null;
    lastApplied = time;
    if (quotes) options.apply(quotes);
    if (readyAfter > 0) setTimer(options.painted, readyAfter);
    else options.painted();
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
