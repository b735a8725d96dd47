// A tab's symbol subscriptions: every quote cell holds its symbol while mounted; the tab
// tells the worker only the difference from what it last announced, in one call per turn,
// so 200 cells mounting at once are one message, and an unmount followed by a mount of the
// same symbol (a re-render, React's StrictMode) is none.
import { createRefCounts } from '../lib/refCounts';

export interface SubscriptionDiff {
  subscribe: string[];
  unsubscribe: string[];
}

export interface TabSubscriptions {
  /** Holds the symbol until the returned function is called (once). */
  hold(symbol: string): () => void;
  /** Symbols held now. */
  held(): string[];
  /** The worker forgot this tab: everything held is announced again at the next flush. */
  forgetAnnounced(): void;
  /** Computes and sends the difference now (the scheduler calls it). */
  flush(): void;
}

export function createTabSubscriptions(options: { send(diff: SubscriptionDiff): void; schedule(task: () => void): void }): TabSubscriptions {
  const counts = createRefCounts<string>();
  let announced = new Set<string>();
  let scheduled = false;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    options.schedule(flush);
  };

  const flush = () => {
    scheduled = false;
    const subscribe = [...counts.keys()].filter((symbol) => !announced.has(symbol));
    const unsubscribe = [...announced].filter((symbol) => !counts.has(symbol));
    announced = new Set(counts.keys());
    if (subscribe.length > 0 || unsubscribe.length > 0) options.send({ subscribe, unsubscribe });
  };

  return {
    hold(symbol) {
      counts.add(symbol);
      schedule();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        counts.release(symbol);
        schedule();
      };
    },
    held: () => [...counts.keys()],
    forgetAnnounced() {
      announced = new Set();
      schedule();
    },
    flush,
  };
}
