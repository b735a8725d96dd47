// The catalogue in the worker (issue 21): the server's answer kept in Dexie, answered stale
// when the server cannot be reached or fails, a refusal not hidden, one request at a time.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { PrimaryInstrument } from '../protocol/market';
import { CATALOGUE_ID, VisoresDb } from '../shared/db';
import { createHttpClient } from '../shared/http';
import { createCatalogue } from './catalogue';
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

function setup() {
  const db = new VisoresDb(`catalogue-${crypto.randomUUID()}`);
  databases.push(db);
  const server = { answer: null as FakeAnswer | null, instruments: [instrument('DLR/DIC26', 1)] };
  const rest = fakeFetch('/api', {
    'GET /visores/primary/instruments': () => {
      if (!server.answer) throw new TypeError('Failed to fetch');
      return server.answer;
    },
  });
  let clock = 1000;
  const catalogue = createCatalogue({
    http: createHttpClient({ fetch: rest.fetch, baseUrl: '/api', getToken: () => 'tok' }),
    table: db.catalogue,
    now: () => clock,
  });
  const answers = (instruments: PrimaryInstrument[]) => {
    server.instruments = instruments;
    server.answer = { status: 200, body: { status: 'success', instruments } };
  };
  return { db, server, rest, catalogue, answers, tick: (ms: number) => (clock += ms) };
}

describe('the catalogue in the worker', () => {
  it("answers the server's catalogue and keeps it", async () => {
    const { db, catalogue, answers } = setup();
    answers([instrument('DLR/DIC26', 1), instrument('DLR/SPOT', 4)]);
    const answer = await catalogue.get();
    expect(answer).toEqual({ instruments: [instrument('DLR/DIC26', 1), instrument('DLR/SPOT', 4)], fetchedAt: 1000, stale: false });
    expect(await db.catalogue.get(CATALOGUE_ID)).toEqual({ id: CATALOGUE_ID, instruments: answer.instruments, fetchedAt: 1000 });
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
