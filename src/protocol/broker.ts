// Broker sessions, positions and fills (spec sections 3, 7; issue 4), in the Primary API's
// field names.
import { z } from './zod';

export const ConnectRequest = z.strictObject({
  /** `sim://` for the built-in paper broker, or a Primary API base URL. */
  url: z.string().trim().min(1, 'Falta la dirección del broker').max(300, 'La dirección no puede superar 300 caracteres'),
  username: z.string().max(200, 'El usuario no puede superar 200 caracteres').default(''),
  password: z.string().max(1024, 'La contraseña no puede superar 1024 caracteres').default(''),
});

export const WatchRequest = z.strictObject({
  sessionId: z.string().trim().min(1, 'Falta sessionId').max(100, 'sessionId inválido'),
});

export const PAPER_BROKER_URL = 'sim://';

export interface Position {
  instrument: { symbolReference: string; settlType: number };
  symbol: string;
  buySize: number;
  buyPrice: number;
  sellSize: number;
  sellPrice: number;
  totalDailyDiff: number;
  totalDiff: number;
  tradingSymbol: string;
  originalBuyPrice: number;
  originalSellPrice: number;
}

export interface PositionsSnapshot {
  account: string;
  broker: 'primary';
  as_of: string;
  etag: string;
  positions: Position[];
}

/** An execution report of a fill (Primary order record fields). */
export interface Fill {
  orderId: string;
  clOrdId: string;
  execId: string;
  accountId: { id: string };
  instrumentId: { marketId: 'ROFX'; symbol: string };
  side: 'BUY' | 'SELL';
  ordType: 'LIMIT' | 'MARKET';
  timeInForce: 'DAY';
  price: number;
  orderQty: number;
  lastPx: number;
  lastQty: number;
  cumQty: number;
  leavesQty: number;
  avgPx: number;
  /** The order's status after this execution: a partial fill leaves some of it working. */
  status: 'FILLED' | 'PARTIALLY_FILLED';
  transactTime: string;
  text: string;
}

export const POSITIONS_CHANNEL_PREFIX = 'POS:primary:';

export interface PositionsPush {
  type: 'positions';
  /** Omitted when the snapshot is too large to push: the client fetches it over REST. */
  data?: PositionsSnapshot;
  etag: string;
  as_of: string;
}
