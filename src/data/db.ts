// The browser's local database (Dexie over IndexedDB), shared by the data worker (which
// writes) and the tabs (which read with useLiveQuery). Schema changes are new
// `db.version(n)` entries, never edits of a released one; the spec fixes version 3.
import { Dexie, type EntityTable } from 'dexie';
import type { MarketData } from '../protocol/market';

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

export const DB_NAME = 'visores';

export class VisoresDb extends Dexie {
  quotes!: EntityTable<QuoteRecord, 'symbol'>;

  constructor(name = DB_NAME) {
    super(name);
    this.version(3).stores({
      quotes: 'symbol',
    });
  }
}

/** The one database of this context (tab or worker). */
export const db = new VisoresDb();
