// The client side of bench:fanout and what it measures, the same for every server it is pointed
// at (Visores, and the socket.io peer in bench/peer/): N clients in this process, each subscribed
// to its share of the symbols, chosen by one seeded random in the catalogue's order (so each
// client watches the same symbols whichever server it talks to); a window of S seconds that
// starts once every subscription has had its snapshot; and in it, frames and symbol updates
// received, latency from each new trade to the client, the server's CPU and peak RSS. A server
// differs only in how a client connects and subscribes and how a frame is read (FanoutClient).
import { seededRandom } from '../../server/market/random.js';
import { cpuSeconds, memoryMb } from '../serverProcess.js';

export interface ClientHooks<F> {
  /** The snapshot of one of its subscriptions arrived, keyed by `symbol`, with its last trade's date when the snapshot is not also handed to `frame`. */
  subscribed(symbol: string, lastTrade?: number): void;
  /** A frame of updates arrived (or of snapshots: before the window, a frame only tells which trades the client has seen). */
  frame(frame: F): void;
  /** The connection closed. */
  closed(): void;
}

/** How one server's clients connect, subscribe and read their frames. */
export interface FanoutClient<F> {
  /** Opens one connection and subscribes it to `symbols`; resolves once the subscribes are sent, the snapshots arriving through `hooks`. */
  open(symbols: string[], hooks: ClientHooks<F>): Promise<{ close(): void }>;
  /** Calls `onDate` with the last trade's date (LA.date) of each symbol update in the frame. */
  dates(frame: F, onDate: (date: number) => void): void;
  /** Reads a frame whole (every 64th one): whether it holds what `dates` assumes. */
  wellFormed(frame: F): boolean;
}

export interface MeasureOptions<F> {
  label: string;
  clients: number;
  perClient: number;
  seconds: number;
  /** Every symbol, in the catalogue's order. */
  symbols: string[];
  client: FanoutClient<F>;
  /** The process the clients are connected to. */
  serverPid: number;
  /** Two-process runs: the process that runs the feeds and has no clients. */
  feedPid?: number;
  /** Updates the server merged and ticks it published, summed over its processes, since they started. */
  stats(): Promise<{ coalesced: number; published: number }>;
  /** Called once every snapshot arrived, before the window (the peer starts its simulator then). */
  start?(): Promise<void>;
  /** Time between `start` and the window, for the burst a start publishes to pass. */
  warmupMs?: number;
}

export interface Result {
  label: string;
  clients: number;
  messagesPerSecond: number;
  updatesPerSecond: number;
  p50: number;
  p99: number;
  coalesced: number;
  published: number;
  cpuPercent: number;
  /** Server CPU time per symbol update delivered to a client, µs: the cost of fan-out. */
  serverMicrosPerUpdate: number;
  /** Server CPU time per frame (one websocket message) delivered, µs: a frame is one write. */
  serverMicrosPerMessage: number;
  /** Load generator CPU time per frame received, µs. */
  generatorMicrosPerMessage: number;
  generatorCpuPercent: number;
  malformedFrames: number;
  /** Connections that closed during the window. */
  closedInWindow: number;
  peakRssMb: number;
  /** Two-process runs: the feed process's CPU % and peak RSS. */
  feedProcess: { cpuPercent: number; peakRssMb: number } | null;
}

/** Checks a frame's updates, parsed whole: every key a symbol whose update carries a numeric LA.date, and `"date":` written once per update in `text`. */
export function updatesWellFormed(text: string, updates: unknown): boolean {
  if (typeof updates !== 'object' || updates == null) return false;
  const entries = Object.values(updates as Record<string, { md?: { LA?: { date?: unknown } } } | null>);
  const found = text.match(LAST_TRADE_DATE)?.length ?? 0;
  const dates = text.split('"date":').length - 1;
  return entries.length > 0 && found === entries.length && dates === entries.length && entries.every((entry) => typeof entry?.md?.LA?.date === 'number');
}
/** One match per symbol update: the last trade's date. */
const LAST_TRADE_DATE = /"LA":\{"price":[^,]*,"size":[^,]*,"date":(\d+)\}/g;

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function measure<F>(options: MeasureOptions<F>): Promise<Result> {
  const { clients, perClient, symbols, client } = options;
  const random = seededRandom(7);
  const latencies = new Float64Array((64 * 1024 * 1024) / 8);
  let latencyCount = 0;
  let measuring = false;
  let messages = 0;
  let updates = 0;
  let malformedFrames = 0;
  let closedInWindow = 0;
  /** Connections lost before the window: their snapshots would never come. */
  let closedBefore = 0;
  /** Subscriptions whose snapshot has not arrived yet. */
  let awaitingSnapshots = clients * perClient;
  const connections: { close(): void }[] = [];

  const openOne = (): Promise<void> => {
    const wanted = new Set<string>();
    while (wanted.size < perClient) wanted.add(symbols[Math.floor(random() * symbols.length)]!);
    const unanswered = new Set(wanted);
    /**
     * Trade times this client has seen, in two generations (a symbol's last trade stays in the
     * newer while its book updates repeat it): only an update with a new one is timed.
     */
    let seenTrades = new Set<number>();
    let olderTrades = new Set<number>();
    /** Whether the trade is new to this client; it is seen from now on. */
    const firstSight = (date: number) => {
      if (seenTrades.has(date)) return false;
      seenTrades.add(date);
      if (olderTrades.has(date)) return false;
      if (seenTrades.size > 5000) [olderTrades, seenTrades] = [seenTrades, new Set()];
      return true;
    };
    let received = 0;
    const onDate = (date: number) => {
      updates += 1;
      if (firstSight(date) && latencyCount < latencies.length) latencies[latencyCount++] = received - date;
    };
    return client
      .open([...wanted], {
        subscribed(symbol, lastTrade) {
          if (unanswered.delete(symbol)) awaitingSnapshots -= 1;
          if (lastTrade != null) firstSight(lastTrade);
        },
        frame(frame) {
          // Before the window a client only learns which trades it has seen (its snapshots'
          // and those of the updates since): a symbol's first update in the window, a book
          // update repeating a trade of minutes ago, is then not timed as if that trade were new.
          if (!measuring) return client.dates(frame, firstSight);
          received = Date.now();
          messages += 1;
          // Every 64th frame is read whole, to check what the fast path below assumes.
          if ((messages & 63) === 0 && !client.wellFormed(frame)) malformedFrames += 1;
          // The generator shares the machine, so it spends its time receiving, not decoding:
          // each update's last trade time is found in the frame's text itself.
          client.dates(frame, onDate);
        },
        closed() {
          if (measuring) closedInWindow += 1;
          else if (awaitingSnapshots > 0) closedBefore += 1;
        },
      })
      .then((connection) => void connections.push(connection));
  };

  try {
    // Connect in batches so the accept queue is not flooded.
    for (let i = 0; i < clients; i += 50) await Promise.all(Array.from({ length: Math.min(50, clients - i) }, openOne));
    // Measure from the moment every subscription has had its snapshot.
    const deadline = Date.now() + 120_000;
    while (awaitingSnapshots > 0) {
      if (closedBefore > 0) throw new Error(`${closedBefore} connections closed before their snapshots arrived`);
      if (Date.now() > deadline) throw new Error(`${awaitingSnapshots} subscriptions got no snapshot in 2 minutes`);
      await new Promise((r) => setTimeout(r, 50));
    }
    if (options.start) {
      await options.start();
      await new Promise((r) => setTimeout(r, options.warmupMs ?? 0));
    }
    const before = await options.stats();
    const cpuBefore = cpuSeconds(options.serverPid);
    const feedCpuBefore = options.feedPid ? cpuSeconds(options.feedPid) : 0;
    const generatorBefore = process.cpuUsage();
    const started = Date.now();
    measuring = true;
    await new Promise((r) => setTimeout(r, options.seconds * 1000)); // the measurement window itself
    measuring = false;
    const elapsed = (Date.now() - started) / 1000;
    const serverCpuSeconds = cpuSeconds(options.serverPid) - cpuBefore;
    const feedCpuSeconds = options.feedPid ? cpuSeconds(options.feedPid) - feedCpuBefore : 0;
    const generatorUsage = process.cpuUsage(generatorBefore);
    const after = await options.stats();
    const sorted = latencies.slice(0, latencyCount).sort();
    return {
      label: options.label,
      clients,
      messagesPerSecond: messages / elapsed,
      updatesPerSecond: updates / elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      coalesced: after.coalesced - before.coalesced,
      published: after.published - before.published,
      cpuPercent: (serverCpuSeconds / elapsed) * 100,
      generatorCpuPercent: ((generatorUsage.user + generatorUsage.system) / 1e6 / elapsed) * 100,
      serverMicrosPerUpdate: (serverCpuSeconds * 1e6) / updates,
      serverMicrosPerMessage: (serverCpuSeconds * 1e6) / messages,
      generatorMicrosPerMessage: (generatorUsage.user + generatorUsage.system) / messages,
      malformedFrames,
      closedInWindow,
      peakRssMb: memoryMb(options.serverPid, 'VmHWM'),
      feedProcess: options.feedPid ? { cpuPercent: (feedCpuSeconds / elapsed) * 100, peakRssMb: memoryMb(options.feedPid, 'VmHWM') } : null,
    };
  } finally {
    for (const connection of connections) connection.close();
  }
}

const DATE_NEEDLE = '"date":';
const DATE_BYTES = Buffer.from(DATE_NEEDLE);

/** FanoutClient.dates for a frame as bytes: each `"date":` and the digits after it (only LA carries a date in an update). */
export function datesInBytes(raw: Buffer, onDate: (date: number) => void): void {
  for (let at = raw.indexOf(DATE_BYTES); at !== -1; at = raw.indexOf(DATE_BYTES, at)) {
    at += DATE_BYTES.length;
    let date = 0;
    for (let c = raw[at]!; c >= 0x30 && c <= 0x39; c = raw[++at]!) date = date * 10 + (c - 0x30);
    onDate(date);
  }
}

/** The same for a frame as text. */
export function datesInText(text: string, onDate: (date: number) => void): void {
  for (let at = text.indexOf(DATE_NEEDLE); at !== -1; at = text.indexOf(DATE_NEEDLE, at)) {
    at += DATE_NEEDLE.length;
    let date = 0;
    for (let c = text.charCodeAt(at); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++at)) date = date * 10 + (c - 0x30);
    onDate(date);
  }
}
