// Market REST (issue 4): search, formula symbols, expirations, intraday and daily history,
// the Primary instrument list, and the admin's feed controls.
//
// SQLite only: the market lives in memory and touches the database only to sign in, so the
// PostgreSQL variant would test nothing more. The harness clock is frozen (and set to known
// days of the market's calendar where a test needs one), so the simulator's timer makes no
// ticks by itself; tests move the market with feeds.advance() and the clock.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ExpirationResponse,
  FeedResponse,
  FeedsResponse,
  FormulaSymbolsResponse,
  HistoryResponse,
  InstrumentsResponse,
  IntradayResponse,
  SearchResponse,
  type DailyCandle,
  type IntradayCandle,
  type PrimaryInstrument,
} from '../../src/protocol/market.js';
import type { TestServer } from './harness.js';
import { startServer } from './harness.js';
import { loadConfig } from '../../server/config.js';
import { AdminLogsResponse } from '../../src/protocol/admin.js';
import { ADMIN, api, authenticate, expectBody, expectErrorResponse, nextMessage, openSocket, sendJson, session, type Session } from './helpers.js';

const SQLITE = { name: 'sqlite' } as const;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Epoch ms of a Buenos Aires wall-clock time (UTC−3 all year). */
const ba = (date: string, hhmm: string) => Date.parse(`${date}T${hhmm}:00-03:00`);
/** Friday 27 November 2026, 14:30 in Buenos Aires: both markets open. The Monday before was a holiday. */
const FRIDAY = ba('2026-11-27', '14:30');
/** The calendar around it: weekends, Monday 23 November (Soberanía Nacional) and Friday 6 November (the bank employees' day) do not trade. */
const TRADING_DAYS = ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'];

function expectCoherentCandle(candle: Omit<IntradayCandle, 'time'>): void {
  expect(candle.low, JSON.stringify(candle)).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
  expect(candle.high, JSON.stringify(candle)).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
  expect(candle.low, JSON.stringify(candle)).toBeGreaterThan(0);
  expect(Number.isInteger(candle.volume) && candle.volume >= 0, JSON.stringify(candle)).toBe(true);
}

/** The dollar futures the server lists, nearest first. */
function dollarFutures(instruments: PrimaryInstrument[]): PrimaryInstrument[] {
  return instruments
    .filter((instrument) => instrument.cficode === 'FXXXSX' && /^DLR\/[A-Z]{3}\d{2}$/.test(instrument.instrumentId.symbol))
    .sort((a, b) => a.maturityDate!.localeCompare(b.maturityDate!));
}

/**
 * The expiries of the twelve dollar futures listed on 27 November 2026: the last trading day of
 * each month, read off the calendar by hand (31 December does not trade; 31 January 2027 is a
 * Sunday, 28 February too, 31 July and 31 October Saturdays).
 */
const DOLLAR_EXPIRIES: [string, string][] = [
  ['DLR/NOV26', '20261130'],
  ['DLR/DIC26', '20261230'],
  ['DLR/ENE27', '20270129'],
  ['DLR/FEB27', '20270226'],
  ['DLR/MAR27', '20270331'],
  ['DLR/ABR27', '20270430'],
  ['DLR/MAY27', '20270531'],
  ['DLR/JUN27', '20270630'],
  ['DLR/JUL27', '20270730'],
  ['DLR/AGO27', '20270831'],
  ['DLR/SEP27', '20270930'],
  ['DLR/OCT27', '20271029'],
];

describe('market REST on sqlite', () => {
  let server: TestServer;
  let demo: Session;
  let instruments: PrimaryInstrument[];

  const latest = (symbol: string) => {
    const md = server.app.ctx.market.hub.latest(symbol);
    expect(md?.LA, symbol).toBeTruthy();
    return md!;
  };

  beforeAll(async () => {
    server = await startServer(SQLITE, {}, { now: FRIDAY });
    // Only feeds.advance() and the clock move the market here.
    server.app.ctx.market.feeds.stopAll();
    server.app.ctx.market.feeds.advance('rofex', 2000);
    server.app.ctx.market.feeds.advance('tv', 2000);
    demo = await session(server);
    const body = expectBody(await demo.api.get('/api/visores/primary/instruments'), InstrumentsResponse);
    instruments = body.instruments;
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('needs a bearer token', () => {
    it.each([
      ['POST', '/api/visores/search', { symbol: 'al30' }],
      ['POST', '/api/search_symbols_formula', { formula: 'BYMA:AL30 / BYMA:AL30D' }],
      ['POST', '/api/get_expiration_contract', { contract_name: 'DLR/DIC26' }],
      ['POST', '/api/get_intradia', { symbol: 'BYMA:AL30', date: '2026-11-20' }],
      ['POST', '/api/visores/search/symbol/history', { symbol: 'BYMA:AL30', limit: 10 }],
      ['GET', '/api/visores/primary/instruments', undefined],
    ])('%s %s answers 401 without one, and with a forged one', async (method, path, json) => {
      const anonymous = api(server, null);
      const call = (who: typeof anonymous) => (method === 'GET' ? who.get(path) : who.post(path, json));
      expectErrorResponse(await call(anonymous), 401);
      expectErrorResponse(await call(api(server, 'not-a-token')), 401);
      // The same call with the token goes through: the 401 was about the token.
      expect((await call(demo.api)).status).toBe(200);
    });
  });

  describe('POST /api/visores/search', () => {
    const search = async (symbol: string) => expectBody(await demo.api.post('/api/visores/search', { symbol }), SearchResponse).data;

    it('ranks the exact ticker first, then its other lines', async () => {
      const results = await search('al30');
      expect(results[0]!.symbol).toBe('MERV - XMEV - AL30 - 24hs');
      const symbols = results.map((result) => result.symbol);
      expect(symbols).toContain('MERV - XMEV - AL30 - CI');
      expect(symbols).toContain('MERV - XMEV - AL30D - 24hs');
      expect(symbols).toContain('MERV - XMEV - AL30C - 24hs');
      // Nothing unrelated to AL30 comes up.
      for (const symbol of symbols) expect(symbol).toMatch(/AL30/);
    });

    it('finds a futures contract by its exact symbol, with or without the exchange prefix', async () => {
      const future = dollarFutures(instruments)[1]!.instrumentId.symbol;
      expect((await search(future))[0]!.symbol).toBe(future);
      expect((await search(`rofex:${future.toLowerCase()}`))[0]!.symbol).toBe(future);
    });

    it('gives each hit the contract size, tick and decimals of the instrument list (a dollar future: 1000 dollars, 0,5 pesos, 1 decimal)', async () => {
      const future = dollarFutures(instruments)[0]!;
      const [hit] = await search(future.instrumentId.symbol);
      expect(hit).toMatchObject({
        symbol: future.instrumentId.symbol,
        contractSize: future.contractMultiplier,
        tick: future.minPriceIncrement,
        decimals: future.instrumentPricePrecision,
      });
      expect([hit!.contractSize, hit!.tick, hit!.decimals]).toEqual([1000, 0.5, 1]);
      const bond = (await search('al30'))[0]!;
      const listed = instruments.find((instrument) => instrument.instrumentId.symbol === bond.symbol)!;
      expect([bond.contractSize, bond.tick, bond.decimals]).toEqual([listed.contractMultiplier, listed.minPriceIncrement, listed.instrumentPricePrecision]);
    });

    it('finds by description, ignoring accents and case', async () => {
      const soja = await search('soja');
      expect(soja.length).toBeGreaterThan(0);
      for (const result of soja) {
        expect(result.symbol).toMatch(/^SOJ\.ROS\//);
        // The futures say so; the options on them name their future.
        expect(result.description).toMatch(/soja|SOJ\.ROS\//i);
      }
      expect((await search('MAIZ')).map((result) => result.symbol)).toEqual(expect.arrayContaining([expect.stringMatching(/^MAI\.ROS\//)]));
    });

    it('takes «dólar» for the DLR contracts: spot, the futures by expiry, calendar spreads, options, before bonds that mention the word', async () => {
      const results = (await search('dólar')).map((result) => result.symbol);
      const futures = dollarFutures(instruments).map((future) => future.instrumentId.symbol);
      expect(results.slice(0, futures.length + 1)).toEqual(['DLR/SPOT', ...futures]);
      const firstOption = results.findIndex((symbol) => / [CP]$/.test(symbol));
      expect(firstOption).toBeGreaterThan(futures.length);
      for (const symbol of results.slice(futures.length + 1, firstOption)) expect(symbol).toMatch(/^DLR\/[A-Z]{3}\d\d\/[A-Z]{3}\d\d$/);
      const firstBond = results.findIndex((symbol) => symbol.startsWith('MERV - XMEV'));
      expect(firstBond === -1 || firstBond > firstOption).toBe(true);
    });

    it('answers an empty list for text nothing matches', async () => {
      expect(await search('zzzz-nada')).toEqual([]);
    });

    it.each([[{ symbol: '' }], [{ symbol: '   ' }], [{}], [{ symbol: 5 }]])('refuses %j with 400', async (body) => {
      expectErrorResponse(await demo.api.post('/api/visores/search', body), 400);
    });
  });

  describe('POST /api/search_symbols_formula', () => {
    const formula = (text: string) => demo.api.post('/api/search_symbols_formula', { formula: text });

    it('lists the symbols of a MEP formula and says it has operators', async () => {
      const { data } = expectBody(await formula('BYMA:AL30 / BYMA:AL30D'), FormulaSymbolsResponse);
      expect(data).toEqual({ symbols: ['BYMA:AL30', 'BYMA:AL30D'], parses: true, hasOperators: true, unknown: [] });
    });

    it('reads futures symbols (a / before a month code is part of the symbol) and numbers', async () => {
      const [near, far] = dollarFutures(instruments).map((instrument) => instrument.instrumentId.symbol);
      const { data } = expectBody(await formula(`(ROFEX:${far} - ROFEX:${near}) / ROFEX:${near} * 100`), FormulaSymbolsResponse);
      expect(data).toEqual({ symbols: [`ROFEX:${far}`, `ROFEX:${near}`], parses: true, hasOperators: true, unknown: [] });
    });

    it('says a lone symbol has no operators', async () => {
      const { data } = expectBody(await formula('BYMA:GGAL'), FormulaSymbolsResponse);
      expect(data).toEqual({ symbols: ['BYMA:GGAL'], parses: true, hasOperators: false, unknown: [] });
    });

    it('lists a symbol the catalogue does not know in `unknown`', async () => {
      const { data } = expectBody(await formula('BYMA:AL30 / BYMA:NOEXISTE'), FormulaSymbolsResponse);
      expect(data).toEqual({ symbols: ['BYMA:AL30', 'BYMA:NOEXISTE'], parses: true, hasOperators: true, unknown: ['BYMA:NOEXISTE'] });
    });

    it.each([
      // [formula, what the message names, the 1-based position in the formula as written]
      ['BYMA:AL30 / (BYMA:AL30D', 'paréntesis', 24],
      ['BYMA:AL30 / BYMA:AL30D )', '«)»', 24],
      ['BYMA:AL30 /', 'termina', 12],
      ['BYMA:AL30 # 2', '«#»', 11],
    ])('refuses %j with 400 naming the problem (%s) and its position', async (text, problem, position) => {
      const message = expectErrorResponse(await formula(text), 400);
      expect(message).toContain(problem);
      expect(message).toContain(`posición ${position}`);
    });

    it('refuses an empty formula with 400', async () => {
      expect(expectErrorResponse(await formula(''), 400)).toMatch(/vacía/);
    });
  });

  describe('POST /api/get_expiration_contract', () => {
    const expiration = (contract_name: string) => demo.api.post('/api/get_expiration_contract', { contract_name });

    it("answers the month's last trading day for every listed dollar future, in both written forms", async () => {
      expect(dollarFutures(instruments).map((future) => future.instrumentId.symbol)).toEqual(DOLLAR_EXPIRIES.map(([symbol]) => symbol));
      for (const [symbol, expected] of DOLLAR_EXPIRIES) {
        expect(expectBody(await expiration(symbol), ExpirationResponse), symbol).toMatchObject({ expiration: expected });
        expect(expectBody(await expiration(`ROFEX:${symbol}`), ExpirationResponse), symbol).toMatchObject({ expiration: expected });
      }
    });

    it("answers an option's expiry: its underlying future's", async () => {
      const option = instruments.find((instrument) => /^O[CP]AFXS$/.test(instrument.cficode))!;
      const underlying = option.instrumentId.symbol.split(' ')[0]!;
      const { expiration: expected } = expectBody(await expiration(underlying), ExpirationResponse);
      expect(expectBody(await expiration(option.instrumentId.symbol), ExpirationResponse)).toMatchObject({ expiration: expected });
    });

    it.each([['DLR/DIC99'], ['ROFEX:NADA/ENE27']])('answers 404 for an unknown contract %s, naming it', async (name) => {
      expect(expectErrorResponse(await expiration(name), 404)).toContain(name);
    });

    it('answers 404 for a share, which does not expire', async () => {
      expect(expectErrorResponse(await expiration('BYMA:GGAL'), 404)).toContain('BYMA:GGAL');
    });

    it('refuses a missing contract_name with 400', async () => {
      expectErrorResponse(await demo.api.post('/api/get_expiration_contract', {}), 400);
    });
  });

  describe('POST /api/get_intradia', () => {
    const intraday = (symbol: string, date: string) => demo.api.post('/api/get_intradia', { symbol, date });
    const candlesOf = async (symbol: string, date: string) => expectBody(await intraday(symbol, date), IntradayResponse).data;

    it("answers a past day's session, minute by minute: 11:00–16:59 for BYMA, 10:00–16:59 for ROFEX, coherent and in order", async () => {
      for (const [symbol, open] of [
        ['BYMA:GGAL', '11:00'],
        ['DLR/DIC26', '10:00'],
      ] as const) {
        const candles = await candlesOf(symbol, '2026-11-26');
        expect(candles[0]!.time, symbol).toBe(ba('2026-11-26', open) / 1000);
        expect(candles.at(-1)!.time, symbol).toBe(ba('2026-11-26', '16:59') / 1000);
        expect(candles.length, symbol).toBe((ba('2026-11-26', '17:00') - ba('2026-11-26', open)) / MINUTE_MS);
        candles.forEach((candle, i) => {
          if (i > 0) expect(candle.time - candles[i - 1]!.time).toBe(60);
          expectCoherentCandle(candle);
        });
      }
    });

    it('accepts the YYYYMMDD form of the date and answers the same candles', async () => {
      expect(await candlesOf('BYMA:GGAL', '20261126')).toEqual(await candlesOf('MERV - XMEV - GGAL - 24hs', '2026-11-26'));
    });

    it("makes a past day's daily candle of its minutes", async () => {
      const symbol = 'BYMA:AL30';
      const candles = await candlesOf(symbol, '2026-11-26');
      const { data: daily } = expectBody(await demo.api.post('/api/visores/search/symbol/history', { symbol, limit: 10 }), HistoryResponse);
      const sameDay = daily.find((candle) => candle.time === '2026-11-26')!;
      expect(sameDay).toEqual({
        time: '2026-11-26',
        open: candles[0]!.open,
        high: Math.max(...candles.map((c) => c.high)),
        low: Math.min(...candles.map((c) => c.low)),
        close: candles.at(-1)!.close,
        volume: candles.reduce((sum, c) => sum + c.volume, 0),
      });
    });

    it('answers no candles for a weekend, a holiday, an exchange closed day or a day still to come', async () => {
      for (const date of ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-06', '2026-11-30', '2026-12-08']) {
        expect(await candlesOf('BYMA:GGAL', date), date).toEqual([]);
        expect(await candlesOf('DLR/DIC26', date), date).toEqual([]);
      }
    });

    it.each([['2026-02-30'], ['ayer'], ['2026-13-01'], ['20261']])('refuses the date %j with 400 naming it', async (date) => {
      expect(expectErrorResponse(await intraday('BYMA:GGAL', date), 400)).toContain(date);
    });

    it('answers 404 for an unknown symbol, naming it', async () => {
      expect(expectErrorResponse(await intraday('BYMA:NOEXISTE', '2026-11-26'), 404)).toContain('BYMA:NOEXISTE');
    });
  });

  describe('POST /api/visores/search/symbol/history', () => {
    const history = (body: unknown) => demo.api.post('/api/visores/search/symbol/history', body);

    it("answers `limit` trading days, oldest first, the last today's session so far: the board's open, high, low and last", async () => {
      const symbol = 'MERV - XMEV - GGAL - 24hs';
      const { data } = expectBody(await history({ symbol: 'BYMA:GGAL', limit: 7 }), HistoryResponse);
      expect(data.map((candle) => candle.time)).toEqual(TRADING_DAYS);
      data.forEach(expectCoherentCandle);
      const md = latest(symbol);
      expect(data.at(-1)).toMatchObject({ open: md.OP, high: md.HI, low: md.LO, close: md.LA!.price, volume: md.TV });
      // The previous close is the day before's close.
      expect(md.CL?.price).toBe(data.at(-2)!.close);
    });

    it("keeps closed days as they are while today's candle follows the live market", async () => {
      const symbol = 'MERV - XMEV - AL30D - 24hs';
      const before = expectBody(await history({ symbol, limit: 20 }), HistoryResponse).data;
      server.clock.advance(20 * MINUTE_MS);
      server.app.ctx.market.feeds.advance('tv', 2000);
      const after = expectBody(await history({ symbol, limit: 20 }), HistoryResponse).data;
      expect(after.slice(0, -1)).toEqual(before.slice(0, -1));
      expect(after.at(-1)!.close).toBe(latest(symbol).LA!.price);
      expect(after.at(-1)!.volume).toBeGreaterThan(before.at(-1)!.volume);
    });

    it('gives the most candles allowed, 2520, or what the instrument has had since it was listed', async () => {
      const shares = expectBody(await history({ symbol: 'BYMA:GGAL', limit: 2520 }), HistoryResponse).data;
      expect(shares).toHaveLength(2520);
      expect(new Set(shares.map((candle) => candle.time)).size).toBe(2520);
      // AL30 was issued in September 2020, DLR/DIC26 listed a year before its expiry.
      expect(expectBody(await history({ symbol: 'BYMA:AL30', limit: 2520 }), HistoryResponse).data[0]!.time).toBe('2020-09-07');
      expect(expectBody(await history({ symbol: 'DLR/DIC26', limit: 2520 }), HistoryResponse).data[0]!.time).toBe('2025-12-01');
    });

    it.each([[2521], [0], [-5], [1.5], ['10']])('refuses limit %j with 400 naming limit', async (limit) => {
      expect(expectErrorResponse(await history({ symbol: 'BYMA:AL30', limit }), 400)).toMatch(/limit/);
    });

    it('answers 404 for an unknown symbol, naming it', async () => {
      expect(expectErrorResponse(await history({ symbol: 'BYMA:NOEXISTE', limit: 5 }), 404)).toContain('BYMA:NOEXISTE');
    });
  });

  describe('GET /api/visores/primary/instruments', () => {
    it('lists every instrument with the Primary API fields, and none of our own', () => {
      expect(instruments.length).toBeGreaterThan(100);
      for (const instrument of instruments) {
        const name = instrument.instrumentId.symbol;
        expect(instrument, name).toMatchObject({
          instrumentId: { marketId: 'ROFX', symbol: expect.any(String) },
          cficode: expect.stringMatching(/^[A-Z]{6}$/),
          segment: { marketSegmentId: expect.any(String), marketId: 'ROFX' },
          securityDescription: expect.any(String),
          currency: expect.stringMatching(/^(ARS|USD)$/),
          instrumentPricePrecision: expect.any(Number),
        });
        expect(instrument.minPriceIncrement, name).toBeGreaterThan(0);
        expect(instrument.contractMultiplier, name).toBeGreaterThan(0);
        for (const internal of ['kind', 'feed', 'aliases', 'product']) expect(instrument, name).not.toHaveProperty(internal);
        // Futures and options expire; shares and bonds do not.
        if (/^(FXXXSX|O[CP]AFXS)$/.test(instrument.cficode)) expect(instrument.maturityDate, name).toMatch(/^\d{8}$/);
        if (/^(ES|DB)/.test(instrument.cficode)) expect(instrument, name).not.toHaveProperty('maturityDate');
      }
      const symbols = instruments.map((instrument) => instrument.instrumentId.symbol);
      expect(new Set(symbols).size).toBe(symbols.length);
      expect(symbols).toEqual(
        expect.arrayContaining(['I.RFX20', 'I.MERVAL', 'MERV - XMEV - AL30 - CI', 'MERV - XMEV - AL30D - 24hs', 'MERV - XMEV - GD30C - 24hs']),
      );
    });

    it('lists 12 dollar futures for consecutive months from the first one not yet expired, multiplier 1000 in ARS, each expiring on its last trading day', () => {
      const futures = dollarFutures(instruments);
      expect(futures).toHaveLength(12);
      futures.forEach((future, i) => {
        expect(future).toMatchObject({
          instrumentId: { marketId: 'ROFX', symbol: DOLLAR_EXPIRIES[i]![0] },
          segment: { marketSegmentId: 'DDF', marketId: 'ROFX' },
          contractMultiplier: 1000,
          currency: 'ARS',
          maturityDate: DOLLAR_EXPIRIES[i]![1],
        });
      });
    });
  });
});

describe('one market history, on sqlite', () => {
  /** A sample of every kind: a dollar future, the A3500, a share (both terms), a bond line, an index, an option, a spread, a crop future. */
  const SAMPLE = [
    'DLR/DIC26',
    'DLR/SPOT',
    'BYMA:GGAL',
    'BYMA:GGAL - CI',
    'BYMA:AL30C',
    'I.MERVAL',
    'I.RFX20',
    'DLR/DIC26 1500 C',
    'DLR/DIC26/ENE27',
    'SOJ.ROS/ENE27',
  ];
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  /** Text of the history and intraday answers of every sample symbol: what a second process or a restart must repeat byte for byte. */
  async function answers(server: TestServer): Promise<string[]> {
    const demo = await session(server);
    const out: string[] = [];
    for (const symbol of SAMPLE) {
      const daily = await demo.api.post('/api/visores/search/symbol/history', { symbol, limit: 60 });
      const minutes = await demo.api.post('/api/get_intradia', { symbol, date: '2026-11-26' });
      expect([daily.status, minutes.status], symbol).toEqual([200, 200]);
      out.push(daily.text, minutes.text);
    }
    return out;
  }

  it('answers closed days and minutes byte for byte the same: twice, from another server, after a restart, an hour later', async () => {
    const first = await startServer(SQLITE, {}, { now: FRIDAY });
    servers.push(first);
    const once = await answers(first);
    expect(await answers(first)).toEqual(once);
    const second = await startServer(SQLITE, {}, { now: FRIDAY });
    servers.push(second);
    expect(await answers(second)).toEqual(once);
    await first.close();
    // Saturday: the same closed sessions (Friday's is over now; it was under way before).
    const restarted = await startServer(SQLITE, {}, { now: ba('2026-11-28', '12:00') });
    servers.push(restarted);
    const later = await answers(restarted);
    for (const [i, text] of once.entries()) {
      if (i % 2 === 1) expect(later[i], SAMPLE[(i - 1) / 2]).toBe(text);
      else {
        // The daily answers agree on every day before Friday; Saturday's has Friday whole.
        const closed = (body: string) => (JSON.parse(body) as { data: DailyCandle[] }).data.filter((candle) => candle.time < '2026-11-27');
        expect(closed(later[i]!), SAMPLE[i / 2]).toEqual(closed(text));
      }
    }
  });

  it("sends on the socket the previous close the history has: the last closed day's close, for every kind", async () => {
    const server = await startServer(SQLITE, {}, { now: FRIDAY });
    servers.push(server);
    const demo = await session(server);
    const socket = await openSocket(server.wsUrl('/ws/market'));
    await authenticate(socket, demo.token);
    sendJson(socket, { action: 'subscribe', symbols: SAMPLE, requestId: 'all' });
    type Snapshot = Record<string, { md: { CL?: { price: number } | null; LA?: { price: number } | null } }>;
    let snapshot: Snapshot | null = null;
    while (!snapshot) {
      const message = (await nextMessage(socket)) as Record<string, unknown>;
      if (message.requestId === 'all') snapshot = message as unknown as Snapshot;
    }
    for (const symbol of SAMPLE) {
      const { data } = expectBody(await demo.api.post('/api/visores/search/symbol/history', { symbol, limit: 3 }), HistoryResponse);
      expect(data.at(-1)!.time, symbol).toBe('2026-11-27');
      expect(snapshot[symbol]!.md.CL?.price, symbol).toBe(data.at(-2)!.close);
      expect(snapshot[symbol]!.md.LA?.price, symbol).toBe(data.at(-1)!.close);
    }
    socket.close();
  });
});

describe('the real calendar (SIM_CALENDAR=real), on sqlite', () => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  it("keeps a closed market still: on a Saturday nothing trades, the last price is Friday's close, and history has no weekend or holiday", async () => {
    server = await startServer(SQLITE, { market: { ...loadConfig({}).market, simCalendar: 'real' } }, { now: ba('2026-11-28', '12:00') });
    const { feeds, hub } = server.app.ctx.market;
    feeds.stopAll();
    const before = hub.latest('MERV - XMEV - GGAL - 24hs');
    feeds.advance('tv', 500);
    server.clock.advance(3 * HOUR_MS);
    feeds.advance('tv', 500);
    expect(hub.latest('MERV - XMEV - GGAL - 24hs')).toBe(before);
    const demo = await session(server);
    const { data } = expectBody(await demo.api.post('/api/visores/search/symbol/history', { symbol: 'BYMA:GGAL', limit: 7 }), HistoryResponse);
    expect(data.map((candle) => candle.time)).toEqual(TRADING_DAYS);
    expect(before!.LA!.price).toBe(data.at(-1)!.close);
    expect(before!.CL!.price).toBe(data.at(-2)!.close);
    // The book it closed with, around the close: not one quoted from a value that moved on.
    const tick = server.app.ctx.market.catalogue.resolve('BYMA:GGAL')!.minPriceIncrement;
    expect(before!.BI![0]!.price).toBeCloseTo(before!.LA!.price - tick, 6);
    expect(before!.OF![0]!.price).toBeCloseTo(before!.LA!.price + tick, 6);
    // Monday after BYMA opens, it trades again.
    server.clock.advance(ba('2026-11-30', '11:30') - server.clock.now());
    feeds.advance('tv', 500);
    expect(hub.latest('MERV - XMEV - GGAL - 24hs')!.LA!.date).toBeGreaterThanOrEqual(ba('2026-11-30', '11:00'));
    expect(hub.latest('MERV - XMEV - GGAL - 24hs')!.CL!.price).toBe(data.at(-1)!.close);
  });
});

describe('the market clock of a demo shown out of hours (SIM_MARKET_TIME), on sqlite', () => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  it("plays the last trading day's session from that hour: on a Saturday night, Friday at 13:00, running on", async () => {
    const saturdayNight = ba('2026-11-28', '22:00');
    // Started at 22:20, the clock is reckoned from 22:00: 13:20 on Friday.
    server = await startServer(SQLITE, { market: { ...loadConfig({}).market, simMarketTime: 13 * 60 } }, { now: saturdayNight + 20 * MINUTE_MS });
    expect(server.app.ctx.market.now()).toBe(ba('2026-11-27', '13:20'));
    server.clock.advance(10 * MINUTE_MS);
    expect(server.app.ctx.market.now()).toBe(ba('2026-11-27', '13:30'));
    const demo = await session(server);
    const minutes = expectBody(await demo.api.post('/api/get_intradia', { symbol: 'DLR/DIC26', date: '2026-11-27' }), IntradayResponse).data;
    expect(minutes.at(-1)!.time).toBeLessThan(ba('2026-11-27', '13:31') / 1000);
    expect(minutes.at(-1)!.time).toBeGreaterThanOrEqual(ba('2026-11-27', '13:20') / 1000);
  });
});

describe('admin feeds on sqlite', () => {
  let server: TestServer;
  let admin: Session;
  let demo: Session;
  beforeEach(async () => {
    server = await startServer(SQLITE);
    admin = await session(server, ADMIN);
    demo = await session(server);
  });
  afterEach(async () => {
    await server?.close();
  });

  const feedList = async () => expectBody(await admin.api.get('/api/admin/feeds'), FeedsResponse).data;
  const feed = async (name: string) => (await feedList()).find((row) => row.name === name)!;

  it('lists the two data centers, rofex and tv, with their state and figures', async () => {
    const listed = expectBody(await admin.api.get('/api/admin/feeds'), FeedsResponse);
    const rows = listed.data;
    expect(rows.map((row) => row.name)).toEqual(['rofex', 'tv']);
    // One process runs both feeds, and it is the one that answered.
    expect(listed.processes).toEqual([{ process: listed.self, sockets: 0, positionsSockets: 0, startedAt: server.clock.now(), feeds: ['rofex', 'tv'] }]);
    expect(listed.silent).toBe(0);
    for (const row of rows) {
      expect(row).toEqual({
        process: listed.self,
        name: row.name,
        source: 'simulator',
        state: 'running',
        rate: server.config.simulator.ticksPerSecond,
        ticksPerSecond: 0,
        recentTicksPerSecond: 0,
        samples: new Array(59).fill(0),
        since: server.clock.now(),
        instruments: expect.any(Number),
        clients: 0,
        subscribedSymbols: 0,
        lastError: null,
      });
    }
  });

  it('is for admins only', async () => {
    expectErrorResponse(await demo.api.get('/api/admin/feeds'), 403);
    expectErrorResponse(await demo.api.post('/api/admin/feeds/rofex/stop'), 403);
    expectErrorResponse(await demo.api.put('/api/admin/feeds/tv', { rate: 10 }), 403);
    expectErrorResponse(await api(server, null).get('/api/admin/feeds'), 401);
    // The refused stop changed nothing.
    expect((await feed('rofex')).state).toBe('running');
  });

  it('stops and starts a feed; a stopped feed makes no ticks, a running one makes `rate` a second', async () => {
    const { hub } = server.app.ctx.market;
    expect(expectBody(await admin.api.put('/api/admin/feeds/tv', { rate: 10 }), FeedResponse).data.rate).toBe(10);
    expect(expectBody(await admin.api.post('/api/admin/feeds/rofex/stop'), FeedResponse).data.state).toBe('stopped');
    expect((await feedList()).map((row) => [row.name, row.state])).toEqual([
      ['rofex', 'stopped'],
      ['tv', 'running'],
    ]);

    // Two simulated seconds; the second one gives a stopped rofex timer every chance to tick.
    const start = hub.published;
    server.clock.advance(1000);
    await vi.waitFor(() => expect(hub.published - start).toBeGreaterThanOrEqual(10), { timeout: 5000 });
    server.clock.advance(1000);
    await vi.waitFor(() => expect(hub.published - start).toBeGreaterThanOrEqual(20), { timeout: 5000 });
    expect(hub.published - start).toBe(20); // tv's 10 a second, nothing from rofex

    expect(expectBody(await admin.api.post('/api/admin/feeds/rofex/start'), FeedResponse).data.state).toBe('running');
    expect((await feed('rofex')).state).toBe('running');
    const restarted = hub.published;
    server.clock.advance(1000);
    const rofexRate = server.config.simulator.ticksPerSecond;
    await vi.waitFor(() => expect(hub.published - restarted).toBeGreaterThanOrEqual(10 + rofexRate), { timeout: 5000 });

    // Each is in the operator log: who, what, which feed (the test's clock stands still, so
    // their times are equal and the order is not told).
    const logged = expectBody(await admin.api.get('/api/admin/logs?limit=200'), AdminLogsResponse).data.filter((row) => row.action.startsWith('feed_'));
    expect(logged.map((row) => [row.action, row.username, row.detail]).sort()).toEqual([
      ['feed_rate', 'admin', { feed: 'tv', rate: 10 }],
      ['feed_start', 'admin', { feed: 'rofex' }],
      ['feed_stop', 'admin', { feed: 'rofex' }],
    ]);
  });

  it('sets the rate of a feed; refuses a bad rate with 400 and an unknown feed with 404', async () => {
    expect(expectBody(await admin.api.put('/api/admin/feeds/tv', { rate: 10 }), FeedResponse).data).toMatchObject({ name: 'tv', rate: 10 });
    expect((await feed('tv')).rate).toBe(10);
    expect((await feed('rofex')).rate).toBe(server.config.simulator.ticksPerSecond);

    for (const rate of [-1, 1.5, 'fast', null]) {
      expect(expectErrorResponse(await admin.api.put('/api/admin/feeds/tv', { rate }), 400), String(rate)).toMatch(/rate/);
    }
    expectErrorResponse(await admin.api.put('/api/admin/feeds/tv', {}), 400);
    expect((await feed('tv')).rate).toBe(10);

    for (const call of [
      () => admin.api.put('/api/admin/feeds/nasdaq', { rate: 10 }),
      () => admin.api.post('/api/admin/feeds/nasdaq/stop'),
      () => admin.api.post('/api/admin/feeds/nasdaq/start'),
    ]) {
      expect(expectErrorResponse(await call(), 404)).toContain('nasdaq');
    }
  });

  it('reports ticks per second over the last minute', async () => {
    await admin.api.post('/api/admin/feeds/rofex/stop');
    await admin.api.post('/api/admin/feeds/tv/stop');
    server.app.ctx.market.feeds.advance('rofex', 600);
    expect(await feed('rofex')).toMatchObject({ ticksPerSecond: 10 });
    expect(await feed('tv')).toMatchObject({ ticksPerSecond: 0 });
    server.clock.advance(30_000);
    server.app.ctx.market.feeds.advance('tv', 1200);
    expect((await feedList()).map((row) => row.ticksPerSecond)).toEqual([10, 20]);
    server.clock.advance(31_000); // the rofex burst is now over a minute old
    expect((await feedList()).map((row) => row.ticksPerSecond)).toEqual([0, 20]);
  });

  it('counts the market sockets and the symbols they watch on each feed', async () => {
    const future = server.app.ctx.market.catalogue.instruments.find((instrument) => instrument.kind === 'future' && instrument.product === 'DLR')!.instrumentId
      .symbol;
    const subscribe = async (socket: Awaited<ReturnType<typeof openSocket>>, symbol: string) => {
      sendJson(socket, { action: 'subscribe', symbol });
      expect(await nextMessage(socket)).toHaveProperty([symbol]);
    };
    const figures = async () => (await feedList()).map((row) => [row.name, row.clients, row.subscribedSymbols]);

    const first = await openSocket(server.wsUrl('/ws/market'));
    await authenticate(first, demo.token);
    // Two written forms of one instrument: one symbol of the feed.
    await subscribe(first, `ROFEX:${future}`);
    await subscribe(first, future);
    await subscribe(first, 'I.RFX20');
    expect(await figures()).toEqual([
      ['rofex', 1, 2],
      ['tv', 0, 0],
    ]);

    const second = await openSocket(server.wsUrl('/ws/market'));
    await authenticate(second, admin.token);
    await subscribe(second, 'BYMA:AL30');
    await subscribe(second, future);
    expect(await figures()).toEqual([
      ['rofex', 2, 2],
      ['tv', 1, 1],
    ]);

    for (const symbol of [`ROFEX:${future}`, future, 'I.RFX20']) {
      sendJson(first, { action: 'unsubscribe', symbol });
      expect(await nextMessage(first)).toMatchObject({ event: 'unsubscribed', symbol });
    }
    expect(await figures()).toEqual([
      ['rofex', 1, 1],
      ['tv', 1, 1],
    ]);

    second.close();
    first.close();
    await vi.waitFor(
      async () =>
        expect(await figures()).toEqual([
          ['rofex', 0, 0],
          ['tv', 0, 0],
        ]),
      { timeout: 5000 },
    );
  });
});
