import { describe, expect, it } from 'vitest';
import { createSubscriptions } from './subscriptions';

describe('subscriptions across tabs', () => {
  it('reports a symbol when the first tab wants it and when the last lets go', () => {
    const subscriptions = createSubscriptions();
    expect(subscriptions.want('t1', ['A', 'B'])).toEqual({ added: ['A', 'B'], removed: [] });
    expect(subscriptions.want('t2', ['B', 'C'])).toEqual({ added: ['C'], removed: [] });
    expect(subscriptions.want('t3', ['B'])).toEqual({ added: [], removed: [] });
    expect([...subscriptions.tabsOf('B')].sort()).toEqual(['t1', 't2', 't3']);
    expect(subscriptions.release('t1', ['B'])).toEqual({ added: [], removed: [] });
    expect(subscriptions.release('t2', ['B'])).toEqual({ added: [], removed: [] });
    expect(subscriptions.release('t3', ['B'])).toEqual({ added: [], removed: ['B'] });
    expect(subscriptions.wanted().sort()).toEqual(['A', 'C']);
  });

  it('counts several wants of one symbol by one tab', () => {
    const subscriptions = createSubscriptions();
    subscriptions.want('t1', ['A']);
    subscriptions.want('t1', ['A']);
    expect(subscriptions.release('t1', ['A']).removed).toEqual([]);
    expect(subscriptions.isWanted('A')).toBe(true);
    expect(subscriptions.release('t1', ['A']).removed).toEqual(['A']);
    // A release too many changes nothing, even when another tab wants the symbol.
    subscriptions.want('t2', ['A']);
    expect(subscriptions.release('t1', ['A']).removed).toEqual([]);
    expect([...subscriptions.tabsOf('A')]).toEqual(['t2']);
  });

  it('a tab that dies lets go of everything it wanted, but not of what others still want', () => {
    const subscriptions = createSubscriptions();
    subscriptions.want('t1', ['A', 'B', 'B']);
    subscriptions.want('t2', ['B']);
    expect(subscriptions.dropTab('t1')).toEqual({ added: [], removed: ['A'] });
    expect(subscriptions.symbolsOf('t1')).toEqual([]);
    expect(subscriptions.dropTab('t2')).toEqual({ added: [], removed: ['B'] });
    expect(subscriptions.wanted()).toEqual([]);
    expect(subscriptions.dropTab('t2')).toEqual({ added: [], removed: [] });
  });
});
