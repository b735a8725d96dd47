// Which of a tab's symbols it shows only off screen (issue 5): a quote board of 200 rows shows
// a screenful; the rest need not change every frame. Each hold of a symbol either comes with
// the element that shows it (a quote row: on screen or not, as an IntersectionObserver says)
// or without one (a chart, a formula: always counted as on screen). A symbol is off screen
// when it has element holds, none of them in view, and no other hold. The list goes to the
// worker (TabReply 'off-screen'), which then sends those symbols only every few hundred ms.
export interface OffScreenTrackerOptions {
  /** Starts watching whether `element` is on screen, calling back on each change; returns the stop. */
  observe(element: Element, onChange: (inView: boolean) => void): () => void;
  /** The symbols shown only off screen, after each change of that list. */
  report(symbols: string[]): void;
  /** Runs `task` soon (many holds change in one render: one report). */
  schedule(task: () => void): void;
}

export interface OffScreenTracker {
  /**
   * Counts a hold of the symbol, shown by `element` (null: counted as on screen;
   * 'off-screen': a list that keeps the symbol for rows it does not render, counted as an
   * element never in view); returns the release.
   */
  hold(symbol: string, element: Element | null | 'off-screen'): () => void;
  /** Reports the list again (the worker forgot this tab). */
  resend(): void;
}

interface Holds {
  /** Holds without an element. */
  plain: number;
  elements: number;
  /** Element holds whose element is in view. */
  inView: number;
}

export function createOffScreenTracker(options: OffScreenTrackerOptions): OffScreenTracker {
  const holds = new Map<string, Holds>();
  let scheduled = false;
  let lastReported: string | null = null;

  const offScreen = () => [...holds].filter(([, entry]) => entry.plain === 0 && entry.elements > 0 && entry.inView === 0).map(([symbol]) => symbol);

  const changed = () => {
    if (scheduled) return;
    scheduled = true;
    options.schedule(() => {
      scheduled = false;
      const symbols = offScreen().sort();
      const key = symbols.join('\n');
      if (key === lastReported) return;
      lastReported = key;
      options.report(symbols);
    });
  };

  const entryOf = (symbol: string) => {
    let entry = holds.get(symbol);
    if (!entry) holds.set(symbol, (entry = { plain: 0, elements: 0, inView: 0 }));
    return entry;
  };
  const dropIfUnheld = (symbol: string, entry: Holds) => {
    if (entry.plain === 0 && entry.elements === 0 && holds.get(symbol) === entry) holds.delete(symbol);
  };

  return {
    hold(symbol, element) {
      const entry = entryOf(symbol);
      let released = false;
      if (!element) {
        entry.plain += 1;
        changed();
        return () => {
          if (released) return;
          released = true;
          entry.plain -= 1;
          dropIfUnheld(symbol, entry);
          changed();
        };
      }
      if (element === 'off-screen') {
        entry.elements += 1;
        changed();
        return () => {
          if (released) return;
          released = true;
          entry.elements -= 1;
          dropIfUnheld(symbol, entry);
          changed();
        };
      }
      // In view until the observer says otherwise: a new row gets its first updates at once.
      let inView = true;
      entry.elements += 1;
      entry.inView += 1;
      const stop = options.observe(element, (now) => {
        if (released || now === inView) return;
        inView = now;
        entry.inView += now ? 1 : -1;
        changed();
      });
      changed();
      return () => {
        if (released) return;
        released = true;
        stop();
        entry.elements -= 1;
        if (inView) entry.inView -= 1;
        dropIfUnheld(symbol, entry);
        changed();
      };
    },
    resend() {
      lastReported = null;
      changed();
    },
  };
}
