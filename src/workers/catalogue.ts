// The catalogue of instruments in the worker (issue 21): GET /visores/primary/instruments,
// kept in Dexie as last answered, so a visor read offline still has each instrument's decimals
// (the quote boards) and a curve its months. Asked of the server every time a tab wants it
// (the tabs keep it for the day and ask again hourly, on a new day and when the server answers
// again); when the server cannot be reached, or fails, the kept one is answered, marked stale.
// One request at a time: the tabs that ask meanwhile share it.
import { InstrumentsResponse, type PrimaryInstrument } from '../protocol/market';
import { CATALOGUE_ID, type CatalogueRecord } from '../shared/db';
import { ApiError } from '../shared/errors';
import type { HttpClient } from '../shared/http';

/** The catalogue a tab gets: the server's now, or, `stale`, the one kept at `fetchedAt`. */
export interface Catalogue {
  instruments: PrimaryInstrument[];
  /** Epoch ms of the server's answer it is. */
  fetchedAt: number;
  /** True when the server could not give it now: this is the one kept from `fetchedAt`. */
  stale: boolean;
}

/** The part of Dexie's catalogue table used here. */
export interface CatalogueTable {
  get(id: string): Promise<CatalogueRecord | undefined>;
  put(record: CatalogueRecord): Promise<unknown>;
  clear(): Promise<unknown>;
}

export interface CatalogueDeps {
  http: HttpClient;
  table: CatalogueTable | null;
  now?: () => number;
}

/** No answer, or a failure of the server: the kept catalogue will do. A refusal (401…) is not hidden. */
const serverNotAnswering = (error: unknown) => error instanceof ApiError && (error.isNetwork || error.answered >= 500);

export function createCatalogue(deps: CatalogueDeps) {
  const now = deps.now ?? Date.now;
  let inFlight: Promise<Catalogue> | null = null;

  async function load(): Promise<Catalogue> {
    try {
      const { body } = await deps.http.request('GET', '/visores/primary/instruments', { schema: InstrumentsResponse });
      const record: CatalogueRecord = { id: CATALOGUE_ID, instruments: body.instruments, fetchedAt: now() };
      // The copy is a convenience: a full or closed database must not fail the answer.
      await deps.table?.put(record).catch(() => undefined);
      return { instruments: record.instruments, fetchedAt: record.fetchedAt, stale: false };
    } catch (error) {
      if (!serverNotAnswering(error)) throw error;
      const kept = await deps.table?.get(CATALOGUE_ID).catch(() => undefined);
      if (!kept) throw error;
      return { instruments: kept.instruments, fetchedAt: kept.fetchedAt, stale: true };
    }
  }

  return {
    /** The server's catalogue (kept for later), or the kept one when the server cannot give it. */
    get(): Promise<Catalogue> {
      inFlight ??= load().finally(() => (inFlight = null));
      return inFlight;
    },

    /** The logout: the kept catalogue goes with the rest of the user's data. */
    wipe: async (): Promise<void> => {
      await deps.table?.clear();
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogue>;
