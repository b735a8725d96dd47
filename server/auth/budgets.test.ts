import { describe, expect, it } from 'vitest';
import { addressKey, BUSY, createBudgets, createCheckQueue, type BudgetSettings } from './budgets.js';

const SETTINGS: BudgetSettings = {
  loginMaxFailures: 2,
  loginWindowMs: 15 * 60_000,
  loginIpMaxFailures: 3,
  loginConcurrency: 1,
  loginPerAddress: 4,
  userRequests: 3,
  userRequestsWindowMs: 10_000,
  loginQueue: 1,
  redisUrl: null,
  redisPrefix: 'visores-unit:',
};

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and counts IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    for (const ip of ['2001:db8:1:2::10', '2001:DB8:1:2:ffff::1', '2001:0db8:0001:0002:0000:0000:0000:0030', '2001:db8:1:2::1.2.3.4', '2001:db8:1:2::1%eth0']) {
      expect(addressKey(ip), ip).toBe('2001:db8:1:2::/64');
    }
    expect(addressKey('2001:db8:1:3::10')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('createCheckQueue', () => {
  it('runs `concurrency` works, queues `maxWaiting` in order, and refuses the rest without running them', async () => {
    const queue = createCheckQueue(1, 2);
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const work = (name: string) => async () => {
      order.push(name);
      await gate;
      return name;
    };
    const first = queue.run(work('a'));
    const second = queue.run(work('b'));
    const third = queue.run(work('c'));
    expect(queue.full()).toBe('queue');
    expect(await queue.run(work('refused'))).toBe(BUSY);
    expect(queue.stats()).toEqual({ running: 1, waiting: 2, started: 1 });
    expect(queue.retryAfterMs()).toBeGreaterThanOrEqual(1000);
    open();
    expect(await Promise.all([first, second, third])).toEqual(['a', 'b', 'c']);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0, started: 3 });
    expect(queue.full()).toBeNull();
  });

  it('gives the freed slots to the keys in turn, and holds each key to its share', async () => {
    const queue = createCheckQueue(1, 10, 3);
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const work = (name: string) => () =>
      new Promise<string>((resolve) => {
        order.push(name);
        gates.set(name, () => resolve(name));
      });
    const flood = ['a1', 'a2', 'a3'].map((name) => queue.run(work(name), 'attacker'));
    // The attacker's share is taken: a fourth is refused before it waits, anyone else waits.
    expect(queue.full('attacker')).toBe('key');
    expect(await queue.run(work('a4'), 'attacker')).toBe(BUSY);
    expect(queue.full('demo')).toBeNull();
    const demo = queue.run(work('demo'), 'demo');
    // The attacker's first ends: the next turn is the demo's, ahead of the attacker's waiting ones.
    gates.get('a1')!();
    await flood[0];
    await expect.poll(() => order).toEqual(['a1', 'demo']);
    gates.get('demo')!();
    expect(await demo).toBe('demo');
    await expect.poll(() => order).toEqual(['a1', 'demo', 'a2']);
    gates.get('a2')!();
    await expect.poll(() => order).toEqual(['a1', 'demo', 'a2', 'a3']);
    gates.get('a3')!();
    expect(await Promise.all(flood)).toEqual(['a1', 'a2', 'a3']);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0, started: 4 });
    expect(queue.full('attacker')).toBeNull();
  });

  it('leaves one of two slots to other addresses: a sign-in starts at once beside a flood', async () => {
    const queue = createCheckQueue(2, 10, 4);
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const work = (name: string) => () =>
      new Promise<string>((resolve) => {
        order.push(name);
        gates.set(name, () => resolve(name));
      });
    const flood = ['a1', 'a2', 'a3'].map((name) => queue.run(work(name), 'attacker'));
    await expect.poll(() => order).toEqual(['a1']);
    expect(queue.stats()).toEqual({ running: 1, waiting: 2, started: 1 });
    const demo = queue.run(work('demo'), 'demo');
    await expect.poll(() => order).toEqual(['a1', 'demo']);
    gates.get('demo')!();
    expect(await demo).toBe('demo');
    // The freed slot is not the attacker's: it still runs one at a time.
    expect(queue.stats()).toEqual({ running: 1, waiting: 2, started: 2 });
    gates.get('a1')!();
    await expect.poll(() => order).toEqual(['a1', 'demo', 'a2']);
    gates.get('a2')!();
    await expect.poll(() => order).toEqual(['a1', 'demo', 'a2', 'a3']);
    gates.get('a3')!();
    expect(await Promise.all(flood)).toEqual(['a1', 'a2', 'a3']);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0, started: 4 });
    // Works with no key (an admin setting passwords) use every slot.
    const admin = ['p1', 'p2'].map((name) => queue.run(work(name)));
    await expect.poll(() => order.slice(4)).toEqual(['p1', 'p2']);
    gates.get('p1')!();
    gates.get('p2')!();
    expect(await Promise.all(admin)).toEqual(['p1', 'p2']);
  });

  it('frees the slot of a work that throws', async () => {
    const queue = createCheckQueue(1, 0);
    await expect(queue.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run(async () => 'next')).toBe('next');
  });
});

describe('createBudgets', () => {
  it('refuses the address and the account past their budgets, gives refunded points back, and says the first refusal once', async () => {
    const budgets = createBudgets(SETTINGS);
    try {
      const taken = [];
      for (let i = 0; i < 3; i++) taken.push(await budgets.takeAddress('198.51.100.1'));
      expect(taken.every((take) => take.ok)).toBe(true);
      const refused = await budgets.takeAddress('::ffff:198.51.100.1');
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.retryAfterMs).toBeGreaterThan(SETTINGS.loginWindowMs - 60_000);
      expect((await budgets.takeAddress('198.51.100.2')).ok).toBe(true);

      const account = await budgets.takeAccount('user-1');
      expect(account.ok && (await budgets.takeAccount('user-1')).ok).toBe(true);
      expect((await budgets.takeAccount('user-1')).ok).toBe(false);
      if (account.ok) await account.refund();
      // A refund gives a point back, but the refused attempt above counted too.
      expect((await budgets.takeAccount('user-1')).ok).toBe(false);

      expect(await budgets.firstRefusal('login-address', '198.51.100.1')).toBe(true);
      expect(await budgets.firstRefusal('login-address', '198.51.100.1')).toBe(false);
      expect(await budgets.firstRefusal('login-username', '198.51.100.1')).toBe(true);
    } finally {
      await budgets.close();
    }
  });

  it('counts in memory while Redis cannot be reached: neither everyone refused nor no limit', async () => {
    const errors: Error[] = [];
    // A port of this project's range where nothing listens.
    const budgets = createBudgets({ ...SETTINGS, redisUrl: 'redis://127.0.0.1:8539' }, (error) => errors.push(error), 300);
    try {
      await expect(budgets.ready()).rejects.toThrow(/Redis did not answer/);
      const results = [];
      for (let i = 0; i < 4; i++) results.push((await budgets.takeAddress('203.0.113.9')).ok);
      expect(results).toEqual([true, true, true, false]);
      expect((await budgets.takeAddress('203.0.113.10')).ok).toBe(true);
      expect(await budgets.firstRefusal('login-address', '203.0.113.9')).toBe(true);
      expect(await budgets.firstRefusal('login-address', '203.0.113.9')).toBe(false);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await budgets.close();
    }
  });
});
