// The worker's reachability of its server (issue 21): one change per transition, a probe of
// the health check while unreachable (1 s, doubling to 10 s), and back on the first answer.
import { describe, expect, it } from 'vitest';
import { PROBE_FIRST_MS, PROBE_MAX_MS } from '../shared/health';
import { createOnlineTracker, type OnlineState } from './online';

function setup(answers: boolean[]) {
  const timers: { callback: () => void; ms: number }[] = [];
  let checks = 0;
  const tracker = createOnlineTracker({
    check: async () => answers[checks++] ?? false,
    now: () => 1_000,
    setTimer: (callback, ms) => timers.push({ callback, ms }),
    clearTimer: () => undefined,
  });
  const changes: OnlineState[] = [];
  tracker.onChange((state) => changes.push(state));
  /** Runs the next probe the tracker scheduled. */
  const fire = async () => {
    timers.shift()!.callback();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { tracker, changes, timers, fire, checks: () => checks };
}

describe('online tracker', () => {
  it('goes offline once with the time, probes with a growing delay, and comes back on an answer', async () => {
    const { tracker, changes, timers, fire, checks } = setup([false, false, false, false, true]);
    tracker.unreachable();
    tracker.unreachable();
    expect(changes).toEqual([{ online: false, since: 1_000 }]);
    expect(timers.map((timer) => timer.ms)).toEqual([PROBE_FIRST_MS]);
    for (let i = 0; i < 4; i++) await fire();
    expect(timers.map((timer) => timer.ms)).toEqual([PROBE_MAX_MS]);
    await fire();
    expect(checks()).toBe(5);
    expect(changes).toEqual([
      { online: false, since: 1_000 },
      { online: true, since: null },
    ]);
    expect(tracker.isOnline()).toBe(true);
    expect(timers).toEqual([]);
  });

  it('is back at once when any request is answered, and says nothing while nothing changes', () => {
    const { tracker, changes } = setup([]);
    tracker.reached();
    expect(changes).toEqual([]);
    tracker.unreachable();
    tracker.reached();
    expect(changes.map((state) => state.online)).toEqual([false, true]);
  });

  it('takes a proxy’s 502/503/504 for the network gone only when the health check does not answer either', async () => {
    // The server's health answers: one failed request changes nothing, however often it fails.
    const healthy = setup([true, true]);
    healthy.tracker.gatewayFailed();
    await expect(healthy.tracker.settled()).resolves.toBe(true);
    healthy.tracker.gatewayFailed();
    await expect(healthy.tracker.settled()).resolves.toBe(true);
    expect(healthy.checks()).toBe(2);
    expect(healthy.changes).toEqual([]);
    expect(healthy.timers).toEqual([]);

    // Down behind the proxy: online while in doubt, checked once, then unreachable once and
    // probed as after any loss.
    const down = setup([false]);
    down.tracker.gatewayFailed();
    down.tracker.gatewayFailed();
    expect(down.tracker.isOnline()).toBe(true);
    await expect(down.tracker.settled()).resolves.toBe(false);
    expect(down.checks()).toBe(1);
    expect(down.changes).toEqual([{ online: false, since: 1_000 }]);
    expect(down.timers.map((timer) => timer.ms)).toEqual([PROBE_FIRST_MS]);
    // Offline already: another 502 asks nothing more.
    down.tracker.gatewayFailed();
    expect(down.checks()).toBe(1);
  });
});
