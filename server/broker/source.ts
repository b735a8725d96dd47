// Where a watched account's positions and fills come from: the paper broker or a Primary
// API account. The broker service polls each source at its own pace.
import { createHash } from 'node:crypto';
import type { Fill, Position, PositionsSnapshot } from '../../src/protocol/broker.js';
import type { PrimaryClient, PrimaryOrderReportMessage, PrimaryPosition } from '../market/primary/types.js';
import type { PaperAccount } from './paper.js';

export interface AccountSource {
  /** Positions now; rejects when the broker cannot be reached. */
  snapshot(): Promise<PositionsSnapshot>;
  fills(): Fill[];
  /** How often the service asks for a new snapshot. */
  pollEveryMs: number;
  /** Called when something happened that changes positions (a fill). */
  onChange(listener: () => void): void;
  close(): void;
}

/** A snapshot whose etag changes exactly when the positions do. */
export function snapshotOf(account: string, positions: Position[], now: number): PositionsSnapshot {
  const etag = createHash('sha256').update(JSON.stringify(positions)).digest('base64url').slice(0, 16);
  return { account, broker: 'primary', as_of: new Date(now).toISOString(), etag, positions };
}

/** The paper broker: revalued every second; fills at random through `trade`. */
export function paperSource(paper: PaperAccount): AccountSource & { trade(): void } {
  const listeners = new Set<() => void>();
  return {
    snapshot: async () => paper.snapshot(),
    fills: () => paper.fills(),
    pollEveryMs: 1000,
    onChange: (listener) => listeners.add(listener),
    trade() {
      paper.trade();
      for (const listener of listeners) listener();
    },
    close: () => listeners.clear(),
  };
}

function toPosition(raw: PrimaryPosition): Position {
  return {
    instrument: { symbolReference: raw.instrument?.symbolReference ?? raw.symbol, settlType: Number(raw.instrument?.settlType ?? 1) },
    symbol: raw.symbol,
    buySize: raw.buySize,
    buyPrice: raw.buyPrice,
    sellSize: raw.sellSize,
    sellPrice: raw.sellPrice,
    totalDailyDiff: raw.totalDailyDiff,
    totalDiff: raw.totalDiff,
    tradingSymbol: raw.tradingSymbol ?? raw.symbol,
    originalBuyPrice: raw.originalBuyPrice ?? raw.buyPrice,
    originalSellPrice: raw.originalSellPrice ?? raw.sellPrice,
  };
}

const isFillStatus = (status: string): status is Fill['status'] => status === 'FILLED' || status === 'PARTIALLY_FILLED';
const MAX_FILLS = 5000;

/** A Primary API account: positions over REST every 5 s, fills from order reports. */
export function primarySource(client: PrimaryClient, account: string, now: () => number): AccountSource {
  const fills: Fill[] = [];
  /** The executions listed, by execId: a report the exchange sends again (a reconnect) is one fill. */
  const seen = new Set<string>();
  const listeners = new Set<() => void>();
  const stop = client.orderReports.subscribe([account], (message: PrimaryOrderReportMessage) => {
    const report = message.orderReport;
    const status = report.status;
    if (!isFillStatus(status) || !report.lastQty) return;
    const execId = report.execId ?? `${report.clOrdId}-${report.cumQty ?? 0}`;
    if (seen.has(execId)) return;
    seen.add(execId);
    fills.push({
      orderId: report.orderId ?? report.clOrdId,
      clOrdId: report.clOrdId,
      execId,
      accountId: { id: report.accountId.id },
      instrumentId: { marketId: 'ROFX', symbol: report.instrumentId.symbol },
      side: report.side === 'SELL' ? 'SELL' : 'BUY',
      ordType: report.ordType === 'MARKET' ? 'MARKET' : 'LIMIT',
      timeInForce: 'DAY',
      price: report.price ?? report.lastPx ?? 0,
      orderQty: report.orderQty,
      lastPx: report.lastPx ?? 0,
      lastQty: report.lastQty,
      cumQty: report.cumQty ?? report.lastQty,
      leavesQty: report.leavesQty ?? 0,
      avgPx: report.avgPx ?? report.lastPx ?? 0,
      status,
      transactTime: report.transactTime ?? '',
      text: report.text ?? '',
    });
    if (fills.length > MAX_FILLS) for (const dropped of fills.splice(0, fills.length - MAX_FILLS)) seen.delete(dropped.execId);
    for (const listener of listeners) listener();
  });
  return {
    snapshot: async () => snapshotOf(account, (await client.positions(account)).map(toPosition), now()),
    fills: () => [...fills],
    pollEveryMs: 5000,
    onChange: (listener) => listeners.add(listener),
    close() {
      stop();
      listeners.clear();
    },
  };
}
