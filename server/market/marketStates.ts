// Each market's state as the market socket tells it (the `markets` event): running, stopped by
// an admin, silent, reconnecting to the exchange, or closed, with since when.
//
// The process that runs a feed reports what it knows of it (FeedReport: the admin's wish, the
// exchange's connection, the last update it published) through the hub, on every change and
// as a heartbeat; every process, that one included, hears the reports and derives each
// market's state with its own clock and the trading calendar. A feed whose reports stop (its
// process is gone, with Redis) is silent since it was last heard, until another process takes
// it over and reports it again.
import type { FeedName, MarketsEvent, MarketStateEntry, MarketStateName } from '../../src/protocol/market.js';
import { isoOfDay, MARKET_LABELS, MARKET_NAMES, type MarketName, type SessionState, type TradingCalendar } from './calendar.js';
import type { Hub } from './hub.js';

/** What the process that runs a feed says of it. */
export interface FeedReport {
  feed: FeedName;
  /** The process that runs it. */
  owner: string;
  source: 'simulator' | 'primary';
  /** Whether it runs: false when an admin stopped it. */
  running: boolean;
  /** Epoch ms since it runs, or since it was stopped. */
  since: number;
  /** The exchange's connection: up, down (connecting or reconnecting), or idle (nothing asked of it). The simulator's is up. */
  connection: 'up' | 'down' | 'idle';
  /** Epoch ms since the connection is as it is. */
  connectionSince: number;
  /** Epoch ms of the last update it published; null when none. */
  lastUpdate: number | null;
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Whether a report heard through the hub (from Redis: any JSON) is one. */
export function isFeedReport(value: unknown): value is FeedReport {
  if (typeof value !== 'object' || value == null) return false;
  const report = value as Record<string, unknown>;
  return (
    (report.feed === 'rofex' || report.feed === 'tv') &&
    typeof report.owner === 'string' &&
    (report.source === 'simulator' || report.source === 'primary') &&
    typeof report.running === 'boolean' &&
    isTime(report.since) &&
    (report.connection === 'up' || report.connection === 'down' || report.connection === 'idle') &&
    isTime(report.connectionSince) &&
    (report.lastUpdate === null || isTime(report.lastUpdate))
  );
}

export interface MarketStateInput {
  /** The feed's latest report and when this process heard it; null when none was heard yet. */
  heard: { report: FeedReport; at: number } | null;
  /** When this process began listening: a feed never heard of is silent this long after it. */
  listeningSince: number;
  session: SessionState;
  /** The market keeps its hours: its feed is the exchange, or the simulator with SIM_CALENDAR=real. */
  keepsHours: boolean;
  silentMs: number;
  now: number;
}

/**
 * A market's state and since when, from its feed's report and its session. In order: an
 * admin's stop; a closed session (when the market keeps its hours); a feed not heard from for
 * silentMs (its process is gone); the exchange's connection down; nothing published for
 * silentMs while the market is open (at any hour for the demo simulator).
 */
export function deriveMarketState(input: MarketStateInput): { state: MarketStateName; since: number | null } {
  const { heard, session, keepsHours, silentMs, now } = input;
  const lost = now - (heard?.at ?? input.listeningSince) > silentMs;
  const report = heard?.report;
  if (report && !lost && !report.running) return { state: 'stopped', since: report.since };
  if (keepsHours && !session.open) return { state: 'closed', since: session.closesAt };
  if (lost) return { state: 'silent', since: heard?.at ?? input.listeningSince };
  // Not heard of yet, shortly after this process started: no news is no alarm.
  if (!report) return { state: 'running', since: null };
  const exchange = report.source === 'primary';
  if (exchange && report.connection === 'down') return { state: 'reconnecting', since: report.connectionSince };
  const opened = keepsHours ? session.opensAt : -Infinity;
  const began = Math.max(report.since, exchange ? report.connectionSince : -Infinity, opened);
  // An exchange feed asked for nothing publishes nothing, and is none the worse for it.
  if (report.connection === 'idle') return { state: 'running', since: began };
  const active = Math.max(report.lastUpdate ?? -Infinity, began);
  if (now - active > silentMs) return { state: 'silent', since: active };
  return { state: 'running', since: began };
}

/** A process derives from the reports of every feed it hears. */
export interface MarketStatesOptions {
  hub: Pick<Hub, 'publishFeedState' | 'onFeedState'>;
  calendar: Pick<TradingCalendar, 'sessionAt'>;
  now: () => number;
  silentMs: number;
  simCalendar: 'demo' | 'real';
  /** The feed of each market's instruments. */
  feedOf: Record<MarketName, FeedName>;
  /** Feeds on the real exchange (the rest are simulated). */
  exchangeFeeds: ReadonlySet<FeedName>;
  /** Reports of the feeds this process runs now (none when it runs none). */
  ownReports(): FeedReport[];
}

/** How often the process that runs a feed reports it: every second, faster when silence is told sooner. */
export function heartbeatMs(silentMs: number): number {
  return Math.max(100, Math.min(1000, Math.floor(silentMs / 3)));
}

export function createMarketStates(options: MarketStatesOptions) {
  const { now, silentMs } = options;
  const heard = new Map<FeedName, { report: FeedReport; at: number }>();
  let listeningSince = now();
  /** Each market's state as last told, and what tells a change of it. */
  const told = new Map<MarketName, { state: MarketStateName; since: number | null; key: string }>();
  let event: MarketsEvent | null = null;
  const listeners = new Set<(event: MarketsEvent) => void>();
  let timer: NodeJS.Timeout | null = null;
  /** While this process reports its own feeds: the states are derived once they all are. */
  let beating = false;

  const simulatedMarket = (market: MarketName) => !options.exchangeFeeds.has(options.feedOf[market]);

  /** Derives every market's state now; tells the listeners when any state or session changed. */
  function evaluate(): MarketsEvent {
    const at = now();
    let changed = event == null;
    const markets: MarketStateEntry[] = MARKET_NAMES.map((market) => {
      const feed = options.feedOf[market];
      const simulated = simulatedMarket(market);
      const session = options.calendar.sessionAt(market, at);
      const keepsHours = !simulated || options.simCalendar === 'real';
      const derived = deriveMarketState({ heard: heard.get(feed) ?? null, listeningSince, session, keepsHours, silentMs, now: at });
      const previous = told.get(market);
      // A state keeps the time it began; running again after another state began when it was seen.
      const since = previous?.state === derived.state ? (previous.since ?? derived.since) : previous && derived.state === 'running' ? at : derived.since;
      const key = `${derived.state}|${since}|${session.day}|${session.open}`;
      if (previous?.key !== key) changed = true;
      told.set(market, { state: derived.state, since, key });
      const entry: MarketStateEntry = {
        market,
        label: MARKET_LABELS[market],
        feed,
        simulated,
        state: derived.state,
        since,
        lastUpdate: heard.get(feed)?.report.lastUpdate ?? null,
        session: { day: isoOfDay(session.day), open: session.open, opensAt: session.opensAt, closesAt: session.closesAt, nextOpensAt: session.nextOpensAt },
      };
      return entry;
    });
    const next: MarketsEvent = { event: 'markets', simulated: markets.every((entry) => entry.simulated), calendar: options.simCalendar, markets };
    if (!changed) {
      // The same states: only the last update times moved, told with the next change.
      return event!;
    }
    event = next;
    for (const listener of listeners) listener(next);
    return next;
  }

  const stopListening = options.hub.onFeedState((report) => {
    if (!isFeedReport(report)) return;
    heard.set(report.feed, { report, at: now() });
    if (timer && !beating) evaluate();
  });

  /** Reports the feeds this process runs, then derives the states again. */
  function beat(): void {
    beating = true;
    try {
      for (const report of options.ownReports()) options.hub.publishFeedState(report);
    } finally {
      beating = false;
    }
    evaluate();
  }

  return {
    /** Starts reporting and deriving (the service's start). */
    start(): void {
      if (timer) return;
      listeningSince = now();
      timer = setInterval(beat, heartbeatMs(silentMs));
      timer.unref();
      beat();
    },
    /** Something changed in a feed this process may run (an admin's wish applied, a lock won or lost): told now. */
    refresh(): void {
      if (timer) beat();
    },
    /** The latest event (with the latest update times). */
    current(): MarketsEvent {
      const latest = evaluate();
      return {
        ...latest,
        markets: latest.markets.map((entry) => ({ ...entry, lastUpdate: heard.get(entry.feed)?.report.lastUpdate ?? entry.lastUpdate })),
      };
    },
    /** Calls `listener` with the event whenever a market's state changes; returns the unsubscribe. */
    onChange(listener: (event: MarketsEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close(): void {
      if (timer) clearInterval(timer);
      timer = null;
      stopListening();
      listeners.clear();
    },
  };
}
export type MarketStates = ReturnType<typeof createMarketStates>;
