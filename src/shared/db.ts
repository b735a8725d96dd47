// The browser's local database (Dexie over IndexedDB), shared by the data worker (which
// writes) and the tabs (which read with useLiveQuery). Schema changes are new
// `db.version(n)` entries, never edits of a released one; the spec fixes version 3.
import { Dexie, type EntityTable, type Table } from 'dexie';
import type { Candle } from '../lib/candles';
import type { MarketData, PrimaryInstrument } from '../protocol/market';
import type { FavItem, FolderNode, ReadVisor, Section, TreeNode, Visor } from '../protocol/workspace';

/** Last known state of a symbol, so a reopened visor shows prices at once (marked stale). */
export interface QuoteRecord {
  /** The key as the visor writes it (`DLR/DIC26`, `BYMA:AL30`). */
  symbol: string;
  md: MarketData;
  /** YYYYMMDD, for instruments that expire. */
  expiration?: string;
  /** Epoch ms when the worker received it. */
  receivedAt: number;
}

/**
 * Recent emojis (spec sections 3 and 7): the whole list, serialized, in the record with id 0
 * of a store keyed by an auto-incremented id. Shared by whoever uses this browser, as the
 * spec keeps it (no user in the record).
 */
export interface RecentEmojiRecord {
  id: number;
  /** JSON of the list of {u, n}, most recent first. */
  data: string;
}

// The cached workspace. Every record carries the id of the signed-in user it was read for,
// and every read filters on it, so users sharing a browser never see each other's data and
// a logout deletes exactly its user's records.

/** A user's folder tree as last read or saved, with the version a save sends as If-Match. */
export interface FolderTreeRecord {
  userId: string;
  nodes: TreeNode[];
  version: number;
  /** Epoch ms of the read or save this came from. */
  syncedAt: number;
}

/** A visor as the server answered it, cached for the user who read it: their own, or another user's public one (its public fields). */
export type VisorRecord = ReadVisor & { userId: string } & LocalRevision;

/** One of the user's own visores, cached. */
export type OwnVisorRecord = Visor & { userId: string } & LocalRevision;

/**
 * Issue 21: bumped by every offline change of the visor's sections applied to the cache (the
 * outbox's), which keeps the server's version: a tab takes a record of the same version and a
 * higher `localRev` as newer, and never an older one it may still be handed. A record read
 * from the server has none (0).
 */
export interface LocalRevision {
  localRev?: number;
}

/** The user's favourites as GET getFavs answers them. */
export interface FavouritesRecord {
  userId: string;
  visores: FavItem[];
  folders: FolderNode[];
}

/** A visor the user opened, and when (Inicio's Recientes, issue 18). */
export interface RecentVisorRecord {
  userId: string;
  visor_id: string;
  /** Epoch ms of the last opening. */
  openedAt: number;
}

/**
 * A visor's section change not yet confirmed by the server, kept the moment it is made (the
 * autosave leaves a second later, and the tab may be gone by then): the sections it was made on
 * (`base`, at `version`) and the tab's sections (`draft`). One per user and visor; the visor
 * screen that opens next takes it and saves it.
 */
export interface VisorDraftRecord {
  userId: string;
  visor_id: string;
  base: Section[];
  version: number;
  draft: Section[];
  /** Which visor screen (one tab's mount of it) made it: that one clears it when it has nothing pending. */
  editor: string;
  /** Epoch ms of the change. */
  savedAt: number;
}

/**
 * A chart's history of one symbol (issue 19): what one request shape answered (`key`,
 * lib/candles.ts historyKey: the minutes of the last sessions, or so many daily candles),
 * in market seconds, so a chart seen before draws at once, offline too, marked stale.
 */
export interface ChartHistoryRecord {
  symbol: string;
  key: string;
  candles: Candle[];
  /** Epoch ms of the answer. */
  fetchedAt: number;
}

/**
 * A workspace write made while the server could not be reached (issue 21): kept in order
 * (`seq`) until the worker replays it. `key` names the write once and for all (a create
 * sends it as the new visor's id), so a replay of a write the server did apply is recognised.
 */
export interface OutboxRecord {
  seq?: number;
  userId: string;
  key: string;
  /** workers/outbox.ts OutboxOp, stored as data. */
  op: OutboxOpData;
  /** Epoch ms of the edit. */
  createdAt: number;
}

/** The stored shape of an outbox write (its type lives in workers/outbox.ts, checked where it is read). */
export interface OutboxOpData {
  kind: string;
  [field: string]: unknown;
}

/**
 * The catalogue of instruments as the server last answered it (issue 21), so a visor read
 * offline still has each instrument's decimals and a curve its months. One record
 * (`id` CATALOGUE_ID), written by the data worker, wiped at logout with the rest.
 */
export interface CatalogueRecord {
  id: string;
  instruments: PrimaryInstrument[];
  /**
   * Epoch ms of the server's answer written. An answer equal to the kept one is not written
   * again until this is a day old (workers/catalogue.ts), so it is at most a day before the
   * server's last answer of these instruments.
   */
  fetchedAt: number;
  /** The instruments' fingerprint (workers/catalogue.ts catalogueHash); absent in records of before it (written again at the next answer). */
  hash?: string;
}

export const CATALOGUE_ID = 'instruments';

export const DB_NAME = 'visores';

export class VisoresDb extends Dexie {
  quotes!: EntityTable<QuoteRecord, 'symbol'>;
  recentEmojis!: EntityTable<RecentEmojiRecord, 'id'>;
  folderTrees!: EntityTable<FolderTreeRecord, 'userId'>;
  visores!: Table<VisorRecord, [string, string]>;
  favourites!: EntityTable<FavouritesRecord, 'userId'>;
  recentVisores!: Table<RecentVisorRecord, [string, string]>;
  visorDrafts!: Table<VisorDraftRecord, [string, string]>;
  chartHistory!: Table<ChartHistoryRecord, [string, string]>;
  outbox!: EntityTable<OutboxRecord, 'seq'>;
  catalogue!: EntityTable<CatalogueRecord, 'id'>;

  constructor(name = DB_NAME) {
    super(name);
    this.version(3).stores({
      quotes: 'symbol',
      recentEmojis: '++id',
      folderTrees: 'userId',
      visores: '[userId+visor_id], userId',
      favourites: 'userId',
    });
    // Issue 18: the visores each user opened, for Inicio's Recientes.
    this.version(4).stores({ recentVisores: '[userId+visor_id], userId' });
    // A visor's section change kept until the server has it (a new store: the others keep their data).
    this.version(5).stores({ visorDrafts: '[userId+visor_id], userId' });
    // Issue 19: charts' history per symbol and request (a new store: the others keep their data).
    this.version(6).stores({ chartHistory: '[symbol+key], fetchedAt' });
    // Issue 21: workspace writes made offline, replayed in order (a new store: the others keep their data).
    this.version(7).stores({ outbox: '++seq, userId' });
    // Issue 21: the last catalogue, for offline reading (a new store: the others keep their data).
    this.version(8).stores({ catalogue: 'id' });
  }
}

/**
 * Logout, from the tab: every record of the user, their writes not yet sent, and the caches of
 * what they watched (quotes, charts' history, the catalogue). The data worker wipes the same at
 * the token's change; the tab does it too, so the data goes even when the worker cannot (another
 * build's worker, one that does not answer). The recent emojis stay: the spec keeps them per browser.
 */
export async function wipeUserData(database: VisoresDb, userId: string): Promise<void> {
  const { folderTrees, visores, favourites, recentVisores, visorDrafts, outbox, quotes, chartHistory, catalogue } = database;
  await database.transaction('rw', [folderTrees, visores, favourites, recentVisores, visorDrafts, outbox, quotes, chartHistory, catalogue], async () => {
    await folderTrees.delete(userId);
    await favourites.delete(userId);
    await visores.where('userId').equals(userId).delete();
    await recentVisores.where('userId').equals(userId).delete();
    await visorDrafts.where('userId').equals(userId).delete();
    await outbox.where('userId').equals(userId).delete();
    await Promise.all([quotes.clear(), chartHistory.clear(), catalogue.clear()]);
  });
}

/** The one database of this context (tab or worker). */
export const db = new VisoresDb();
