import { describe, expect, it } from 'vitest';
import { createTabSubscriptions, type SubscriptionDiff } from './tabSubscriptions';

function setup() {
  const sent: SubscriptionDiff[] = [];
  const tasks: (() => void)[] = [];
  const subscriptions = createTabSubscriptions({ send: (diff) => sent.push(diff), schedule: (task) => tasks.push(task) });
  const run = () => {
    while (tasks.length > 0) tasks.shift()!();
  };
  return { subscriptions, sent, tasks, run };
}

describe('tab subscriptions', () => {
  it('announces many holds of one turn in one message, each symbol once', () => {
    const { subscriptions, sent, tasks, run } = setup();
    subscriptions.hold('A');
    subscriptions.hold('B');
    subscriptions.hold('A');
    expect(tasks).toHaveLength(1);
    run();
    expect(sent).toEqual([{ subscribe: ['A', 'B'], unsubscribe: [] }]);
  });

  it('lets go of a symbol only when its last holder does, and a quick re-hold sends nothing', () => {
    const { subscriptions, sent, run } = setup();
    const releaseA1 = subscriptions.hold('A');
    const releaseA2 = subscriptions.hold('A');
    run();
    releaseA1();
    releaseA1();
    run();
    expect(sent).toHaveLength(1);
    releaseA2();
    subscriptions.hold('A');
    run();
    expect(sent).toHaveLength(1);
    expect(subscriptions.held()).toEqual(['A']);
  });

  it('unsubscribes what is no longer held', () => {
    const { subscriptions, sent, run } = setup();
    const release = subscriptions.hold('A');
    subscriptions.hold('B');
    run();
    release();
    run();
    expect(sent.at(-1)).toEqual({ subscribe: [], unsubscribe: ['A'] });
  });

  it('announces everything again after the worker forgot the tab', () => {
    const { subscriptions, sent, run } = setup();
    subscriptions.hold('A');
    subscriptions.hold('B');
    run();
    subscriptions.forgetAnnounced();
    run();
    expect(sent.at(-1)).toEqual({ subscribe: ['A', 'B'], unsubscribe: [] });
  });
});
