import { describe, expect, it } from 'vitest';
import { createTradingCalendar, type SessionState } from './calendar.js';
import { createMarketHub } from './hub.js';
import { createMarketStates, deriveMarketState, heartbeatMs, isFeedReport, type FeedReport, type MarketStateInput } from './marketStates.js';

const SECOND = 1000;
const T0 = Date.UTC(2026, 10, 25, 17, 2); // Wednesday 25/11/2026, 14:02 in Buenos Aires
const openSession: SessionState = {
  day: 0,
  open: true,
  opensAt: T0 - 4 * 3600 * SECOND,
  closesAt: T0 + 3 * 3600 * SECOND,
  nextOpensAt: T0 + 20 * 3600 * SECOND,
};
const closedSession: SessionState = { ...openSession, open: false, closesAt: T0 - 60 * SECOND };

const report = (fields: Partial<FeedReport> = {}): FeedReport => ({
  feed: 'rofex',
  owner: 'p1',
  source: 'simulator',
  running: true,
  since: T0 - 3600 * SECOND,
  connection: 'up',
  connectionSince: T0 - 3600 * SECOND,
  lastUpdate: T0 - SECOND,
  ...fields,
});

const input = (fields: Partial<MarketStateInput> = {}): MarketStateInput => ({
  heard: { report: report(), at: T0 - 500 },
  listeningSince: T0 - 3600 * SECOND,
  session: openSession,
  keepsHours: false,
  silentMs: 15 * SECOND,
  now: T0,
  ...fields,
});

describe('deriveMarketState', () => {
  it('runs while its feed publishes, since it started', () => {
    expect(deriveMarketState(input())).toEqual({ state: 'running', since: T0 - 3600 * SECOND });
  });

  it('is stopped when an admin stopped the feed, since then, whatever the hour', () => {
    const stopped = { report: report({ running: false, since: T0 - 60 * SECOND }), at: T0 - 500 };
    expect(deriveMarketState(input({ heard: stopped }))).toEqual({ state: 'stopped', since: T0 - 60 * SECOND });
    expect(deriveMarketState(input({ heard: stopped, session: closedSession, keepsHours: true }))).toEqual({ state: 'stopped', since: T0 - 60 * SECOND });
  });

  it('is silent when the feed published nothing for silentMs, since its last update', () => {
    const quiet = { report: report({ lastUpdate: T0 - 16 * SECOND }), at: T0 - 500 };
    expect(deriveMarketState(input({ heard: quiet }))).toEqual({ state: 'silent', since: T0 - 16 * SECOND });
    expect(deriveMarketState(input({ heard: { report: report({ lastUpdate: T0 - 15 * SECOND }), at: T0 } }))).toMatchObject({ state: 'running' });
    // Never published: silent since it started.
    expect(deriveMarketState(input({ heard: { report: report({ lastUpdate: null }), at: T0 } }))).toEqual({ state: 'silent', since: T0 - 3600 * SECOND });
  });

  it('counts the silence from the opening when the market keeps its hours', () => {
    const overnight = { report: report({ lastUpdate: T0 - 20 * 3600 * SECOND }), at: T0 };
    const justOpened = { ...openSession, opensAt: T0 - 5 * SECOND };
    expect(deriveMarketState(input({ heard: overnight, session: justOpened, keepsHours: true }))).toEqual({ state: 'running', since: T0 - 5 * SECOND });
    expect(deriveMarketState(input({ heard: overnight, session: justOpened, keepsHours: false }))).toMatchObject({ state: 'silent' });
  });

  it('is closed outside the session when it keeps its hours (the exchange, or SIM_CALENDAR=real), since the close', () => {
    expect(deriveMarketState(input({ session: closedSession, keepsHours: true }))).toEqual({ state: 'closed', since: closedSession.closesAt });
    // The demo simulator runs at any hour.
    expect(deriveMarketState(input({ session: closedSession, keepsHours: false }))).toMatchObject({ state: 'running' });
  });

  it('is silent when the process that runs the feed has not been heard from for silentMs, since it was last heard', () => {
    expect(deriveMarketState(input({ heard: { report: report(), at: T0 - 16 * SECOND } }))).toEqual({ state: 'silent', since: T0 - 16 * SECOND });
    // A market closed is closed, heard from or not.
    expect(deriveMarketState(input({ heard: { report: report(), at: T0 - 16 * SECOND }, session: closedSession, keepsHours: true }))).toMatchObject({
      state: 'closed',
    });
  });

  it('is running, since unknown, before the first report; silent once that wait passes silentMs', () => {
    expect(deriveMarketState(input({ heard: null, listeningSince: T0 - SECOND }))).toEqual({ state: 'running', since: null });
    expect(deriveMarketState(input({ heard: null, listeningSince: T0 - 16 * SECOND }))).toEqual({ state: 'silent', since: T0 - 16 * SECOND });
  });

  it('is reconnecting while the exchange connection is down, since it went down; an idle one asked for nothing runs', () => {
    const down = { report: report({ source: 'primary', connection: 'down', connectionSince: T0 - 30 * SECOND, lastUpdate: T0 - 40 * SECOND }), at: T0 };
    expect(deriveMarketState(input({ heard: down, keepsHours: true }))).toEqual({ state: 'reconnecting', since: T0 - 30 * SECOND });
    const idle = { report: report({ source: 'primary', connection: 'idle', connectionSince: T0 - 30 * SECOND, lastUpdate: null }), at: T0 };
    expect(deriveMarketState(input({ heard: idle, keepsHours: true }))).toMatchObject({ state: 'running' });
    // Back up: the silence counts from the reconnection.
    const up = { report: report({ source: 'primary', connection: 'up', connectionSince: T0 - 2 * SECOND, lastUpdate: T0 - 40 * SECOND }), at: T0 };
    expect(deriveMarketState(input({ heard: up, keepsHours: true }))).toEqual({ state: 'running', since: T0 - 2 * SECOND });
  });
});

describe('isFeedReport', () => {
  it('takes a report and refuses anything else', () => {
    expect(isFeedReport(report())).toBe(true);
    expect(isFeedReport(JSON.parse(JSON.stringify(report({ lastUpdate: null }))))).toBe(true);
    expect(isFeedReport({ ...report(), feed: 'nyse' })).toBe(false);
    expect(isFeedReport({ ...report(), since: 'ayer' })).toBe(false);
    expect(isFeedReport(null)).toBe(false);
    expect(isFeedReport('{"feed":"rofex"}')).toBe(false);
  });
});

describe('heartbeatMs', () => {
  it('beats every second, three times within the silence when it is shorter', () => {
    expect(heartbeatMs(15_000)).toBe(1000);
    expect(heartbeatMs(1000)).toBe(333);
  });
});

describe('createMarketStates', () => {
  it("tells each change once, with every market's state and session, and not the beats that change nothing", () => {
    let now = T0;
    const hub = createMarketHub();
    let own: FeedReport[] = [report({ feed: 'rofex', lastUpdate: T0 }), report({ feed: 'tv', lastUpdate: T0 })];
    const states = createMarketStates({
      hub,
      calendar: createTradingCalendar(),
      now: () => now,
      silentMs: 15 * SECOND,
      simCalendar: 'demo',
      feedOf: { rofex: 'rofex', byma: 'tv', a3500: 'rofex' },
      exchangeFeeds: new Set(),
      ownReports: () => own,
    });
    const told: string[][] = [];
    states.onChange((event) => told.push(event.markets.map((entry) => `${entry.market} ${entry.state}`)));
    states.start();
    try {
      expect(told).toEqual([['rofex running', 'byma running', 'a3500 running']]);
      const first = states.current();
      expect(first).toMatchObject({ event: 'markets', simulated: true, calendar: 'demo' });
      expect(first.markets[0]).toMatchObject({
        label: 'ROFEX',
        feed: 'rofex',
        since: T0 - 3600 * SECOND,
        lastUpdate: T0,
        session: { day: '2026-11-25', open: true, opensAt: Date.UTC(2026, 10, 25, 13), closesAt: Date.UTC(2026, 10, 25, 20) },
      });

      now += SECOND;
      own = own.map((entry) => ({ ...entry, lastUpdate: now }));
      states.refresh();
      expect(told).toHaveLength(1);
      expect(states.current().markets[0]!.lastUpdate).toBe(now);

      own = [report({ feed: 'rofex', running: false, since: now, lastUpdate: now }), own[1]!];
      states.refresh();
      expect(told.at(-1)).toEqual(['rofex stopped', 'byma running', 'a3500 stopped']);
      expect(states.current().markets[0]).toMatchObject({ state: 'stopped', since: now });

      now += 60 * SECOND;
      own = [report({ feed: 'rofex', running: true, since: now, lastUpdate: now }), report({ feed: 'tv', lastUpdate: now })];
      states.refresh();
      expect(told.at(-1)).toEqual(['rofex running', 'byma running', 'a3500 running']);
      expect(states.current().markets[0]).toMatchObject({ state: 'running', since: now });
      expect(told).toHaveLength(3);
    } finally {
      states.close();
    }
  });
});
