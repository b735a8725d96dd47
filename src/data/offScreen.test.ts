import { describe, expect, it } from 'vitest';
import { createOffScreenTracker } from './offScreen';

function setup() {
  const reports: string[][] = [];
  const tasks: (() => void)[] = [];
  const watchers = new Map<Element, (inView: boolean) => void>();
  const tracker = createOffScreenTracker({
    observe(element, onChange) {
      watchers.set(element, onChange);
      return () => watchers.delete(element);
    },
    report: (symbols) => reports.push(symbols),
    schedule: (task) => tasks.push(task),
  });
  const run = () => tasks.splice(0).forEach((task) => task());
  const element = () => ({}) as Element;
  return { tracker, reports, run, watchers, element };
}

describe('off-screen tracker', () => {
  it('reports the symbols whose rows are all out of view, once per change, in one report per batch of changes', () => {
    const { tracker, reports, run, watchers, element } = setup();
    const a = element();
    const b = element();
    tracker.hold('A', a);
    tracker.hold('B', b);
    run();
    // New rows count as in view until the observer says otherwise.
    expect(reports).toEqual([[]]);
    watchers.get(a)!(false);
    watchers.get(b)!(false);
    run();
    expect(reports.at(-1)).toEqual(['A', 'B']);
    watchers.get(b)!(true);
    watchers.get(b)!(true);
    run();
    expect(reports.at(-1)).toEqual(['A']);
    // The same list again is not reported again.
    watchers.get(b)!(false);
    watchers.get(b)!(true);
    run();
    expect(reports).toHaveLength(3);
  });

  it('keeps a symbol on screen while any of its rows is in view or anything holds it without a row', () => {
    const { tracker, reports, run, watchers, element } = setup();
    const first = element();
    const second = element();
    tracker.hold('A', first);
    const releaseSecond = tracker.hold('A', second);
    watchers.get(first)!(false);
    run();
    expect(reports.at(-1)).toEqual([]);
    watchers.get(second)!(false);
    run();
    expect(reports.at(-1)).toEqual(['A']);
    // A chart of the same symbol wants every update.
    const releaseChart = tracker.hold('A', null);
    run();
    expect(reports.at(-1)).toEqual([]);
    releaseChart();
    releaseChart();
    run();
    expect(reports.at(-1)).toEqual(['A']);
    // A released row stops being watched and counted; with no holds left the symbol is gone.
    releaseSecond();
    expect(watchers.has(second)).toBe(false);
    run();
    expect(reports.at(-1)).toEqual(['A']);
    watchers.get(first)!(true);
    run();
    expect(reports.at(-1)).toEqual([]);
  });

  it('reports the list again on resend (a new port)', () => {
    const { tracker, reports, run, watchers, element } = setup();
    const a = element();
    tracker.hold('A', a);
    watchers.get(a)!(false);
    run();
    tracker.resend();
    run();
    expect(reports).toEqual([['A'], ['A']]);
  });

  it("holds a symbol off screen for a virtual list's unrendered rows until a rendered row shows it (issue 18)", () => {
    const { tracker, reports, run, watchers, element } = setup();
    const releaseList = tracker.hold('A', 'off-screen');
    run();
    expect(reports.at(-1)).toEqual(['A']);
    const row = element();
    const releaseRow = tracker.hold('A', row);
    run();
    expect(reports.at(-1)).toEqual([]);
    watchers.get(row)!(false);
    run();
    expect(reports.at(-1)).toEqual(['A']);
    releaseRow();
    releaseList();
    releaseList();
    run();
    expect(reports.at(-1)).toEqual([]);
  });
});
