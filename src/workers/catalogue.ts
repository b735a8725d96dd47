// The catalogue of instruments in the worker (issue 21): GET /visores/primary/instruments,
// kept in Dexie as last answered, so a visor read offline still has each instrument's decimals
// (the quote boards) and a curve its months. Asked of the server every time a tab wants it
// (the tabs keep it for the day and ask again hourly, on a new day and when the server answers
// again); when the server cannot be reached, or fails, the kept one is answered, marked stale.
// One request at a time: the tabs that ask meanwhile share it.
//
// The catalogue changes once a day at most, and it is large (500 instruments): an answer is
// written to Dexie only when none is kept, when it differs from the kept one (their
// fingerprints, catalogueHash), or when the kept one is CATALOGUE_REWRITE_MS old. The kept
// one's fingerprint and time are read once per worker and then known here, so an unchanged
// answer costs a hash, not a read and a write. A stale answer says when the server last gave
// these instruments: the latest answer this worker had of them, else the kept one's time.
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

/** An unchanged catalogue is written again once the kept one is this old (its `fetchedAt` stays within a day of the server's last answer). */
export const CATALOGUE_REWRITE_MS = 24 * 60 * 60 * 1000;

/**
 * The instruments' fingerprint: SHA-256 of their JSON, hex. The server's answer is parsed by its
 * schema, so the same catalogue gives the same JSON; hashing it costs less than writing it.
 */
export async function catalogueHash(instruments: readonly PrimaryInstrument[]): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(instruments)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** No answer, or a failure of the server: the kept catalogue will do. A refusal (401…) is not hidden. */
const serverNotAnswering = (error: unknown) => error instanceof ApiError && (error.isNetwork || error.answered >= 500);

/** What is known of a catalogue without its instruments. */
interface Fingerprint {
  hash: string;
  fetchedAt: number;
}

export function createCatalogue(deps: CatalogueDeps) {
  const now = deps.now ?? Date.now;
  let inFlight: Promise<Catalogue> | null = null;
  /** The kept record's fingerprint: undefined until read; null when none is kept. */
  let kept: Fingerprint | null | undefined;
  /** The server's latest answer in this worker: its fingerprint and when (written or not). */
  let confirmed: Fingerprint | null = null;

  const fingerprintOf = (record: CatalogueRecord | undefined): Fingerprint | null => (record ? { hash: record.hash ?? '', fetchedAt: record.fetchedAt } : null);

  /** The kept record's fingerprint, read from Dexie the first time only (a failed read counts as none kept). */
  async function keptNow(table: CatalogueTable): Promise<Fingerprint | null> {
    if (kept !== undefined) return kept;
    try {
      kept = fingerprintOf(await table.get(CATALOGUE_ID));
      return kept;
    } catch {
      return null;
    }
  }

  /** Writes the server's answer unless the kept one has the same instruments and is less than a day old. */
  async function keep(table: CatalogueTable, instruments: PrimaryInstrument[], fetchedAt: number): Promise<void> {
    const hash = await catalogueHash(instruments);
    confirmed = { hash, fetchedAt };
    const last = await keptNow(table);
    if (last && last.hash === hash && fetchedAt - last.fetchedAt < CATALOGUE_REWRITE_MS) return;
    await table.put({ id: CATALOGUE_ID, instruments, fetchedAt, hash });
    kept = { hash, fetchedAt };
  }

  async function load(): Promise<Catalogue> {
    try {
      const { body } = await deps.http.request('GET', '/visores/primary/instruments', { schema: InstrumentsResponse });
      const fetchedAt = now();
      // The copy is a convenience: a full or closed database must not fail the answer.
      if (deps.table) await keep(deps.table, body.instruments, fetchedAt).catch(() => undefined);
      return { instruments: body.instruments, fetchedAt, stale: false };
    } catch (error) {
      if (!serverNotAnswering(error)) throw error;
      const record = await deps.table?.get(CATALOGUE_ID).catch(() => undefined);
      if (!record) throw error;
      kept = fingerprintOf(record);
      // The server gave these very instruments later than they were written: that is their time.
      const fetchedAt = confirmed && record.hash === confirmed.hash ? Math.max(record.fetchedAt, confirmed.fetchedAt) : record.fetchedAt;
      return { instruments: record.instruments, fetchedAt, stale: true };
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
      kept = null;
      confirmed = null;
      await deps.table?.clear();
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogue>;
