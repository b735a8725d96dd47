import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTabRegistry, type LockRequester } from './tabs';

/** Locks as the browser grants them to the worker: when the tab holding one is gone. */
function createFakeLocks() {
  const waiting = new Map<string, () => unknown>();
  const locks: LockRequester = {
    request(name, callback) {
      waiting.set(name, callback);
      return new Promise(() => {});
    },
  };
  return { locks, tabGone: (name: string) => waiting.get(name)?.(), waiting };
}

describe('tab registry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('learns that a tab is gone when its lock is granted', () => {
    const { locks, tabGone } = createFakeLocks();
    const gone: string[] = [];
    const registry = createTabRegistry<string>({ locks, onGone: (tabId) => gone.push(tabId) });
    registry.register('t1', 'lock-t1', 'port1');
    registry.register('t2', 'lock-t2', 'port2');
    tabGone('lock-t1');
    expect(gone).toEqual(['t1']);
    expect(registry.get('t1')).toBeUndefined();
    expect(registry.touch('t1')).toBe(false);
    expect(registry.values()).toEqual(['port2']);
  });

  it('drops a tab that stops beating, keeps one that beats', async () => {
    const gone: string[] = [];
    const registry = createTabRegistry<string>({ locks: null, timeoutMs: 30_000, sweepEveryMs: 5_000, onGone: (tabId) => gone.push(tabId) });
    registry.register('silent', null, 'a');
    registry.register('alive', null, 'b');
    for (let second = 0; second < 40; second += 10) {
      await vi.advanceTimersByTimeAsync(10_000);
      expect(registry.touch('alive')).toBe(true);
    }
    expect(gone).toEqual(['silent']);
    expect(registry.touch('silent')).toBe(false);
  });

  it('a lock granted for an old registration does not end the new one', () => {
    const { locks, tabGone } = createFakeLocks();
    const gone: string[] = [];
    const registry = createTabRegistry<string>({ locks, onGone: (tabId) => gone.push(tabId) });
    registry.register('t1', 'lock-a', 'old');
    registry.register('t1', 'lock-b', 'new');
    expect(gone).toEqual(['t1']);
    tabGone('lock-a');
    expect(gone).toEqual(['t1']);
    expect(registry.get('t1')).toBe('new');
    registry.remove('t1');
    expect(gone).toEqual(['t1', 't1']);
  });
});
