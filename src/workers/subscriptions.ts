// Which tab wants which symbol, counted (issue 5): the first want of a symbol in any tab
// makes it wanted by the worker; when the last tab that wanted it lets go — by asking or by
// dying — it is no longer wanted. Pure bookkeeping: the worker turns the changes it reports
// into socket messages.
import { createRefCounts, type RefCounts } from '../lib/refCounts';

export interface SubscriptionChange {
  /** Symbols no tab wanted before and one does now. */
  added: string[];
  /** Symbols some tab wanted before and none does now. */
  removed: string[];
}

export interface Subscriptions {
  /** One more want of each symbol by the tab (a tab may want a symbol several times). */
  want(tabId: string, symbols: readonly string[]): SubscriptionChange;
  /** One want less of each symbol by the tab; extra releases are ignored. */
  release(tabId: string, symbols: readonly string[]): SubscriptionChange;
  /** Forgets the tab and every want it had (it closed, crashed or went silent). */
  dropTab(tabId: string): SubscriptionChange;
  /** Tabs that want the symbol now. */
  tabsOf(symbol: string): ReadonlySet<string>;
  /** Symbols the tab wants now. */
  symbolsOf(tabId: string): string[];
  /** Every symbol some tab wants. */
  wanted(): string[];
  isWanted(symbol: string): boolean;
}

const NO_TABS: ReadonlySet<string> = new Set();

export function createSubscriptions(): Subscriptions {
  const countsByTab = new Map<string, RefCounts<string>>();
  const tabsBySymbol = new Map<string, Set<string>>();

  const letGo = (tabId: string, symbol: string, removed: string[]) => {
    const tabs = tabsBySymbol.get(symbol);
    if (!tabs?.delete(tabId)) return;
    if (tabs.size === 0) {
      tabsBySymbol.delete(symbol);
      removed.push(symbol);
    }
  };

  return {
    want(tabId, symbols) {
      const added: string[] = [];
      let counts = countsByTab.get(tabId);
      if (!counts) countsByTab.set(tabId, (counts = createRefCounts()));
      for (const symbol of symbols) {
        if (!counts.add(symbol)) continue;
        let tabs = tabsBySymbol.get(symbol);
        if (!tabs) {
          tabsBySymbol.set(symbol, (tabs = new Set()));
          added.push(symbol);
        }
        tabs.add(tabId);
      }
      return { added, removed: [] };
    },
    release(tabId, symbols) {
      const removed: string[] = [];
      const counts = countsByTab.get(tabId);
      if (!counts) return { added: [], removed };
      for (const symbol of symbols) if (counts.release(symbol)) letGo(tabId, symbol, removed);
      return { added: [], removed };
    },
    dropTab(tabId) {
      const removed: string[] = [];
      const counts = countsByTab.get(tabId);
      countsByTab.delete(tabId);
      for (const symbol of counts?.keys() ?? []) letGo(tabId, symbol, removed);
      return { added: [], removed };
    },
    tabsOf: (symbol) => tabsBySymbol.get(symbol) ?? NO_TABS,
    symbolsOf: (tabId) => [...(countsByTab.get(tabId)?.keys() ?? [])],
    wanted: () => [...tabsBySymbol.keys()],
    isWanted: (symbol) => tabsBySymbol.has(symbol),
  };
}
