import { describe, expect, it } from 'vitest';
import type { Quote } from '../lib/quote';
import { createPaintPacer } from './paintPacer';

const quote = (price: number): Quote => ({ md: { LA: { price, size: 1, date: 0 } } });

describe('paint pacer', () => {
  function setup(minInterval?: number, readyAhead?: number) {
    const frames: ((time: number) => void)[] = [];
    const timers: { at: number; callback: () => void }[] = [];
    let time = 0;
    const applied: Record<string, number>[] = [];
    let painted = 0;
    const pacer = createPaintPacer({
      apply: (quotes) => applied.push(Object.fromEntries(Object.entries(quotes).map(([symbol, q]) => [symbol, q.md.LA!.price]))),
      painted: () => (painted += 1),
      requestFrame: (callback) => frames.push(callback),
      minInterval,
      readyAhead,
      setTimer: (callback, ms) => timers.push({ at: time + ms, callback }),
    });
    /** Runs the timers due by `until`, in order. */
    const runTimers = (until: number) => {
      timers.sort((a, b) => a.at - b.at);
      while (timers.length > 0 && timers[0]!.at <= until) timers.shift()!.callback();
    };
    /** Runs the timers due before it, then the frame asked for, 1000/60 ms after the last one. */
    const runFrame = () => {
      time += 1000 / 60;
      runTimers(time);
      frames.shift()!(time);
    };
    return { pacer, frames, timers, applied, runFrame, runTimers, painted: () => painted };
  }

  it('applies nothing until the next frame, then everything received, latest state per symbol, and says so once', () => {
    const { pacer, frames, applied, runFrame, painted } = setup();
    pacer.receive({ A: quote(1), B: quote(1) });
    pacer.receive({ A: quote(2) });
    expect(applied).toEqual([]);
    expect(frames).toHaveLength(1);
    runFrame();
    expect(applied).toEqual([{ A: 2, B: 1 }]);
    expect(painted()).toBe(1);
  });

  it('asks for one frame per batch it holds: a batch after a frame waits for the next one', () => {
    const { pacer, frames, applied, runFrame, painted } = setup();
    pacer.receive({ A: quote(1) });
    runFrame();
    expect(frames).toHaveLength(0);
    pacer.receive({ A: quote(3) });
    expect(frames).toHaveLength(1);
    runFrame();
    expect(applied).toEqual([{ A: 1 }, { A: 3 }]);
    expect(painted()).toBe(2);
  });

  it('with a minimum interval, skips the frames before it is due and applies what came meanwhile, merged, at the due one', () => {
    // readyAhead as long as the interval: painted right after applying.
    const { pacer, frames, applied, runFrame, painted } = setup(1000 / 30, 1000 / 30);
    pacer.receive({ A: quote(1) });
    runFrame();
    expect(applied).toEqual([{ A: 1 }]);
    pacer.receive({ A: quote(2), B: quote(1) });
    runFrame(); // 16.7 ms after the last applied: not due, asks for the next frame
    expect(applied).toHaveLength(1);
    expect(painted()).toBe(1);
    expect(frames).toHaveLength(1);
    pacer.receive({ A: quote(3) });
    expect(frames).toHaveLength(1);
    runFrame(); // 33.3 ms: due
    expect(applied).toEqual([{ A: 1 }, { A: 3, B: 1 }]);
    expect(painted()).toBe(2);
    expect(frames).toHaveLength(0);
  });

  it('with a minimum interval, says painted readyAhead ms before the next due frame, not right after applying', () => {
    const { pacer, timers, applied, runFrame, runTimers, painted } = setup(1000 / 15, 20);
    pacer.receive({ A: quote(1) });
    runFrame(); // applied at 16.7 ms
    expect(applied).toEqual([{ A: 1 }]);
    expect(painted()).toBe(0);
    expect(timers.map((timer) => timer.at)).toEqual([1000 / 60 + 1000 / 15 - 20]);
    runTimers(1000 / 60 + 1000 / 15 - 20 - 0.1);
    expect(painted()).toBe(0);
    runTimers(1000 / 60 + 1000 / 15 - 20);
    expect(painted()).toBe(1);
  });

  it('without a minimum interval, says painted in the frame that applied', () => {
    const { pacer, timers, runFrame, painted } = setup(0, 20);
    pacer.receive({ A: quote(1) });
    runFrame();
    expect(painted()).toBe(1);
    expect(timers).toHaveLength(0);
  });
});
