// Broker sessions, positions and fills (spec sections 3, 7; issue 4), in the Primary API's
// field names.
import { safeText, trimmedText, z } from './zod';
import { successData } from './response';

export const ConnectRequest = z.strictObject({
  /** `sim://` for the built-in paper broker, or a Primary API base URL. */
  url: trimmedText().min(1, 'Falta la dirección del broker').max(300, 'La dirección no puede superar 300 caracteres'),
  username: safeText().max(200, 'El usuario no puede superar 200 caracteres').default(''),
  password: z.string().max(1024, 'La contraseña no puede superar 1024 caracteres').default(''),
  /**
   * The account to use (e.g. REM2747), for a Primary API broker that does not list the user's
   * accounts (rest/accounts): checked with its positions. Optional; ignored for sim://.
   */
  account: trimmedText().max(100, 'La cuenta no puede superar 100 caracteres').optional(),
});

export const WatchRequest = z.strictObject({
  sessionId: trimmedText().min(1, 'Falta sessionId').max(100, 'sessionId inválido'),
});

export const PAPER_BROKER_URL = 'sim://';

export const Position = z.strictObject({
  instrument: z.strictObject({ symbolReference: z.string(), settlType: z.number() }),
  symbol: z.string(),
  buySize: z.number(),
  buyPrice: z.number(),
  sellSize: z.number(),
  sellPrice: z.number(),
  totalDailyDiff: z.number(),
  totalDiff: z.number(),
  tradingSymbol: z.string(),
  originalBuyPrice: z.number(),
  originalSellPrice: z.number(),
});
export type Position = z.infer<typeof Position>;

/** GET /accounts/{account}/positions answers this as is (no status envelope). */
export const PositionsSnapshot = z.strictObject({
  account: z.string(),
  broker: z.literal('primary'),
  /** ISO date-time of the valuation. */
  as_of: z.string(),
  etag: z.string(),
  positions: z.array(Position),
});
export type PositionsSnapshot = z.infer<typeof PositionsSnapshot>;

/** An execution report of a fill (Primary order record fields). */
export const Fill = z.strictObject({
  orderId: z.string(),
  clOrdId: z.string(),
  execId: z.string(),
  accountId: z.strictObject({ id: z.string() }),
  instrumentId: z.strictObject({ marketId: z.literal('ROFX'), symbol: z.string() }),
  side: z.enum(['BUY', 'SELL']),
  ordType: z.enum(['LIMIT', 'MARKET']),
  timeInForce: z.literal('DAY'),
  price: z.number(),
  orderQty: z.number(),
  lastPx: z.number(),
  lastQty: z.number(),
  cumQty: z.number(),
  leavesQty: z.number(),
  avgPx: z.number(),
  /** The order's status after this execution: a partial fill leaves some of it working. */
  status: z.enum(['FILLED', 'PARTIALLY_FILLED']),
  transactTime: z.string(),
  text: z.string(),
});
export type Fill = z.infer<typeof Fill>;

export const POSITIONS_CHANNEL_PREFIX = 'POS:primary:';

/** What /ws/positions pushes for a channel, keyed by the channel (`POS:primary:{account}`). */
export const PositionsPush = z.strictObject({
  type: z.literal('positions'),
  /** Omitted when the snapshot is too large to push: the client fetches it over REST. */
  data: PositionsSnapshot.optional(),
  etag: z.string(),
  as_of: z.string(),
});
export type PositionsPush = z.infer<typeof PositionsPush>;

/** One push frame of /ws/positions: `{"POS:primary:{account}": push}`. */
export const PositionsPushMessage = z.record(z.string().startsWith(POSITIONS_CHANNEL_PREFIX), PositionsPush);
export type PositionsPushMessage = z.infer<typeof PositionsPushMessage>;

// ------------------------------------------------------------------------ answers

/** POST /primary/sessions/connect. */
export const ConnectResponse = z.strictObject({
  status: z.literal('success'),
  sessionId: z.string(),
  accounts: z.array(z.string()),
});
export type ConnectResponse = z.infer<typeof ConnectResponse>;

/** POST /accounts/{account}/watch and /watch-fills. */
export const WatchResponse = z.strictObject({ status: z.literal('success'), account: z.string() });
export type WatchResponse = z.infer<typeof WatchResponse>;

/** 202 from GET /accounts/{account}/positions and /fills until the first valuation. */
export const WarmingUpResponse = z.strictObject({ status: z.literal('warming_up') });
export type WarmingUpResponse = z.infer<typeof WarmingUpResponse>;

/** GET /accounts/{account}/positions (200): the snapshot itself, with its etag also as ETag. */
export const PositionsResponse = PositionsSnapshot;
export type PositionsResponse = z.infer<typeof PositionsResponse>;

/** GET /accounts/{account}/fills (200); no status envelope. */
export const FillsResponse = z.strictObject({ account: z.string(), fills: z.array(Fill) });
export type FillsResponse = z.infer<typeof FillsResponse>;

/** One broker session as GET /admin/positions lists it. */
export const AdminBrokerSession = z.strictObject({
  sessionId: z.string(),
  /** The username of who connected it. */
  user: z.string(),
  broker: z.enum(['paper', 'primary']),
  url: z.string(),
  /** ISO date-time. */
  connectedAt: z.string(),
  accounts: z.array(
    z.strictObject({
      account: z.string(),
      watched: z.boolean(),
      /** Positions sockets subscribed to it, in every process. */
      subscribers: z.number(),
      /** The latest valuation's time; null while not watched or warming up. */
      as_of: z.string().nullable(),
      lastError: z.string().nullable(),
    }),
  ),
});
export type AdminBrokerSession = z.infer<typeof AdminBrokerSession>;

/** GET /admin/positions: the broker sessions of every process, oldest first. */
export const AdminPositionsResponse = successData(z.array(AdminBrokerSession));
export type AdminPositionsResponse = z.infer<typeof AdminPositionsResponse>;
