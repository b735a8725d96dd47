// The catalogue in the worker (issue 21): the server's answer kept in Dexie (written only when
// none is kept, it changed, or the kept one is a day old), answered stale when the server cannot
// be reached or fails, a refusal not hidden, one request at a time.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { PrimaryInstrument } from '../protocol/market';
import { CATALOGUE_ID, VisoresDb, type CatalogueRecord } from '../shared/db';
import { createHttpClient } from '../shared/http';
import { CATALOGUE_REWRITE_MS, catalogueHash, createCatalogue, type CatalogueTable } from './catalogue';
import { fakeFetch, type FakeAnswer } from '../../tests/fakes/worker/fakes';

const instrument = (symbol: string, precision: number): PrimaryInstrument => ({
  instrumentId: { marketId: 'ROFX', symbol },
  cficode: 'FXXXSX',
  segment: { marketSegmentId: 'DDF', marketId: 'ROFX' },
  securityDescription: symbol,
  currency: 'ARS',
  minPriceIncrement: 0.5,
  contractMultiplier: 1000,
  instrumentPricePrecision: precision,
  maturityDate: '20261231',
});

const databases: VisoresDb[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.delete();
});

/** The real Dexie table, its writes recorded. */
function recorded(db: VisoresDb): CatalogueTable & { puts: CatalogueRecord[] } {
  const puts: CatalogueRecord[] = [];
  return {
    puts,
    get: (id) => db.catalogue.get(id),
    put: (record) => {
      puts.push(record);
      return db.catalogue.put(record);
    },
    clear: () => db.catalogue.clear(),
  };
}

/** A worker's catalogue over `db` (a new database unless given: a later worker over the same one), its clock at `start`. */
function setup(db = new VisoresDb(`catalogue-${crypto.randomUUID()}`), start = 1000) {
  if (!databases.includes(db)) databases.push(db);
  const server = { answer: null as FakeAnswer | null, instruments: [instrument('DLR/DIC26', 1)] };
  const rest = fakeFetch('/api', {
    'GET /visores/primary/instruments': () => {
      if (!server.answer) throw new TypeError('Failed to fetch');
      return server.answer;
    },
  });
  let clock = start;
  const table = recorded(db);
  const catalogue = createCatalogue({
    http: createHttpClient({ fetch: rest.fetch, baseUrl: '/api', getToken: () => 'tok' }),
    table,
    now: () => clock,
  });
  const answers = (instruments: PrimaryInstrument[]) => {
    server.instruments = instruments;
    server.answer = { status: 200, body: { status: 'success', instruments } };
  };
  return { db, server, rest, catalogue, answers, puts: table.puts, tick: (ms: number) => (clock += ms), clock: () => clock };
}

describe('the catalogue in the worker', () => {
  it("answers the server's catalogue and keeps it", async () => {
    const { db, catalogue, answers } = setup();
    answers([instrument('DLR/DIC26', 1), instrument('DLR/SPOT', 4)]);
    const answer = await catalogue.get();
    expect(answer).toEqual({ instruments: [instrument('DLR/DIC26', 1), instrument('DLR/SPOT', 4)], fetchedAt: 1000, stale: false });
    expect(await db.catalogue.get(CATALOGUE_ID)).toEqual({
      id: CATALOGUE_ID,
      instruments: answer.instruments,
      fetchedAt: 1000,
      hash: await catalogueHash(answer.instruments),
    });
  });

  it('writes it only when none is kept, when it changed, or when the kept one is a day old', async () => {
    const { db, catalogue, answers, puts, tick, clock } = setup();
    const dlr = [instrument('DLR/DIC26', 1), instrument('DLR/SPOT', 4)];
    answers(dlr);
    await catalogue.get();
    expect(puts.map((put) => put.fetchedAt)).toEqual([1000]);

    // The same instruments an hour later: answered as the server's now, not written again.
    tick(3_600_000);
    await expect(catalogue.get()).resolves.toEqual({ instruments: dlr, fetchedAt: clock(), stale: false });
    expect(puts).toHaveLength(1);

    // A changed catalogue (one precision, nothing else) is written at once.
    const changed = [instrument('DLR/DIC26', 2), instrument('DLR/SPOT', 4)];
    answers(changed);
    tick(60_000);
    await catalogue.get();
    expect(puts.map((put) => [put.instruments, put.fetchedAt])).toEqual([
      [dlr, 1000],
      [changed, clock()],
    ]);
    const written = clock();

    // Unchanged, it is written again once the kept one is a day old.
    tick(CATALOGUE_REWRITE_MS - 1);
    await catalogue.get();
    expect(puts).toHaveLength(2);
    tick(1);
    await catalogue.get();
    expect(puts.map((put) => put.fetchedAt)).toEqual([1000, written, written + CATALOGUE_REWRITE_MS]);
    expect(await db.catalogue.get(CATALOGUE_ID)).toMatchObject({ instruments: changed, fetchedAt: written + CATALOGUE_REWRITE_MS });
  });

  it('answers the kept one stale with the time the server last gave those instruments, written or not', async () => {
    const { db, server, catalogue, answers, puts, tick } = setup();
    answers([instrument('DLR/DIC26', 1)]);
    await catalogue.get();
    tick(3_600_000);
    await catalogue.get();
    expect(puts).toHaveLength(1);

    server.answer = null;
    tick(60_000);
    await expect(catalogue.get()).resolves.toEqual({ instruments: [instrument('DLR/DIC26', 1)], fetchedAt: 3_601_000, stale: true });

    // A new worker (every tab closed and opened again) knows only the kept one's time.
    const next = setup(db, 3_700_000);
    next.server.answer = null;
    await expect(next.catalogue.get()).resolves.toEqual({ instruments: [instrument('DLR/DIC26', 1)], fetchedAt: 1000, stale: true });
  });

  it('compares a new worker’s first answer with what an earlier worker kept, and writes again a record kept without a fingerprint', async () => {
    const first = setup();
    first.answers([instrument('DLR/DIC26', 1)]);
    await first.catalogue.get();

    const second = setup(first.db, 5000);
    second.answers([instrument('DLR/DIC26', 1)]);
    await expect(second.catalogue.get()).resolves.toMatchObject({ fetchedAt: 5000, stale: false });
    expect(second.puts).toEqual([]);

    // A record of before the fingerprints: written again, once.
    const older = (await first.db.catalogue.get(CATALOGUE_ID))!;
    delete older.hash;
    await first.db.catalogue.put(older);
    const third = setup(first.db, 9000);
    third.answers([instrument('DLR/DIC26', 1)]);
    await third.catalogue.get();
    await third.catalogue.get();
    expect(third.puts.map((put) => put.fetchedAt)).toEqual([9000]);
  });

  it('writes the next answer after a logout wiped the kept one', async () => {
    const { db, catalogue, answers, puts } = setup();
    answers([instrument('DLR/DIC26', 1)]);
    await catalogue.get();
    await catalogue.wipe();
    await catalogue.get();
    expect(puts).toHaveLength(2);
    expect(await db.catalogue.get(CATALOGUE_ID)).toMatchObject({ instruments: [instrument('DLR/DIC26', 1)] });
  });

  it('answers the kept one, stale, when the server cannot be reached or fails, and the new one when it answers again', async () => {
    const { server, catalogue, answers, tick } = setup();
    answers([instrument('DLR/DIC26', 1)]);
    await catalogue.get();
    tick(60_000);

    server.answer = null;
    await expect(catalogue.get()).resolves.toEqual({ instruments: [instrument('DLR/DIC26', 1)], fetchedAt: 1000, stale: true });
    for (const status of [500, 503]) {
      server.answer = { status, body: { status: 'error', message: 'Falla' } };
      await expect(catalogue.get()).resolves.toMatchObject({ fetchedAt: 1000, stale: true });
    }

    answers([instrument('DLR/ENE27', 1)]);
    await expect(catalogue.get()).resolves.toEqual({ instruments: [instrument('DLR/ENE27', 1)], fetchedAt: 61_000, stale: false });
  });

  it('fails when none was ever kept, and does not hide a refusal behind the kept one', async () => {
    const { server, catalogue, answers } = setup();
    await expect(catalogue.get()).rejects.toMatchObject({ code: 'network' });
    answers([instrument('DLR/DIC26', 1)]);
    await catalogue.get();
    server.answer = { status: 401, body: { status: 'error', message: 'Sesión vencida' } };
    await expect(catalogue.get()).rejects.toMatchObject({ code: 'unauthorized', message: 'Sesión vencida' });
  });

  it('asks the server once for the tabs that ask at the same time', async () => {
    const { rest, catalogue, answers } = setup();
    answers([instrument('DLR/DIC26', 1)]);
    const [first, second] = await Promise.all([catalogue.get(), catalogue.get()]);
    expect(first).toEqual(second);
    expect(rest.calls).toHaveLength(1);
    await catalogue.get();
    expect(rest.calls).toHaveLength(2);
  });

  it('is wiped at logout', async () => {
    const { db, server, catalogue, answers } = setup();
    answers([instrument('DLR/DIC26', 1)]);
    await catalogue.get();
    await catalogue.wipe();
    expect(await db.catalogue.count()).toBe(0);
    server.answer = null;
    await expect(catalogue.get()).rejects.toMatchObject({ code: 'network' });
  });
});
