// Market REST (issue 4): search, formula symbols, expirations, intraday and daily history,
// the Primary instrument list, and the admin's feed controls.
//
// SQLite only: the market lives in memory and touches the database only to sign in, so the
// PostgreSQL variant would test nothing more. The harness clock is frozen, so the
// simulator's timer makes no ticks by itself; tests move the market with feeds.advance().
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
  type IntradayCandle,
  type PrimaryInstrument,
} from '../../src/protocol/market.js';
import type { TestServer } from './harness.js';
import { startServer } from './harness.js';
import { ADMIN, api, authenticate, expectBody, expectErrorResponse, nextMessage, openSocket, sendJson, session, type Session } from './helpers.js';

const SQLITE = { name: 'sqlite' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const SPANISH_MONTHS = ['ENE', 'FEB', 'MAR', 'ABR', 'MAY', 'JUN', 'JUL', 'AGO', 'SEP', 'OCT', 'NOV', 'DIC'];

const isWeekday = (ms: number) => ![0, 6].includes(new Date(ms).getUTCDay());
const startOfUtcDay = (ms: number) => ms - (ms % DAY_MS);
/** The market's day of an instant: its date in Buenos Aires (UTC−3), at 00:00 UTC. */
const marketDay = (ms: number) => startOfUtcDay(ms - 3 * 60 * 60_000);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const compactDay = (ms: number) => isoDay(ms).replaceAll('-', '');
/** The latest market day before `ms`'s whose weekday satisfies `accept`. */
function dayBefore(ms: number, accept: (ms: number) => boolean): number {
  let day = marketDay(ms) - DAY_MS;
  while (!accept(day)) day -= DAY_MS;
  return day;
}

/** `DIC26` → YYYYMMDD of the last Monday–Friday of December 2026, computed here on its own. */
function lastWeekdayOf(code: string): string {
  const month = SPANISH_MONTHS.indexOf(code.slice(0, 3));
  expect(month, code).toBeGreaterThanOrEqual(0);
  let day = Date.UTC(2000 + Number(code.slice(3)), month + 1, 0);
  while (!isWeekday(day)) day -= DAY_MS;
  return compactDay(day);
}

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

describe('market REST on sqlite', () => {
  let server: TestServer;
  let demo: Session;
  let instruments: PrimaryInstrument[];

  const livePrice = (symbol: string) => {
    const md = server.app.ctx.market.hub.latest(symbol);
    expect(md?.LA, symbol).toBeTruthy();
    return md!.LA!.price;
  };

  beforeAll(async () => {
    server = await startServer(SQLITE);
    // Only feeds.advance() moves prices here, so a price read before a request is the one it uses.
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

    it('answers the last weekday of the month for every listed dollar future, in both written forms', async () => {
      const futures = dollarFutures(instruments);
      expect(futures).toHaveLength(12);
      for (const future of futures) {
        const symbol = future.instrumentId.symbol;
        const expected = lastWeekdayOf(symbol.slice(4));
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

    it('answers 360 minute candles from 14:00 to 19:59 UTC for a past weekday, coherent and in order', async () => {
      const day = dayBefore(server.clock.now(), isWeekday);
      const candles = await candlesOf('BYMA:GGAL', isoDay(day));
      expect(candles).toHaveLength(360);
      expect(candles[0]!.time).toBe((day + 14 * 60 * 60_000) / 1000);
      expect(candles.at(-1)!.time).toBe((day + (19 * 60 + 59) * 60_000) / 1000);
      candles.forEach((candle, i) => {
        if (i > 0) expect(candle.time - candles[i - 1]!.time).toBe(60);
        expectCoherentCandle(candle);
      });
    });

    it('accepts the YYYYMMDD form of the date and answers the same candles', async () => {
      const day = dayBefore(server.clock.now(), isWeekday);
      expect(await candlesOf('BYMA:GGAL', compactDay(day))).toEqual(await candlesOf('MERV - XMEV - GGAL - 24hs', isoDay(day)));
    });

    it("ends a past day at that day's close in the daily history", async () => {
      const symbol = 'BYMA:AL30';
      const day = dayBefore(server.clock.now(), isWeekday);
      const candles = await candlesOf(symbol, isoDay(day));
      const { data: daily } = expectBody(await demo.api.post('/api/visores/search/symbol/history', { symbol, limit: 10 }), HistoryResponse);
      const sameDay = daily.find((candle) => candle.time === isoDay(day));
      expect(sameDay).toBeDefined();
      expect(candles.at(-1)!.close).toBe(sameDay!.close);
    });

    it('answers no candles for a Saturday, a Sunday or a day still to come', async () => {
      const now = server.clock.now();
      expect(await candlesOf('BYMA:GGAL', isoDay(dayBefore(now, (ms) => new Date(ms).getUTCDay() === 6)))).toEqual([]);
      expect(await candlesOf('BYMA:GGAL', isoDay(dayBefore(now, (ms) => new Date(ms).getUTCDay() === 0)))).toEqual([]);
      expect(await candlesOf('BYMA:GGAL', isoDay(marketDay(now) + 3 * DAY_MS))).toEqual([]);
    });

    it.each([['2026-02-30'], ['ayer'], ['2026-13-01'], ['20261']])('refuses the date %j with 400 naming it', async (date) => {
      expect(expectErrorResponse(await intraday('BYMA:GGAL', date), 400)).toContain(date);
    });

    it('answers 404 for an unknown symbol, naming it', async () => {
      const date = isoDay(dayBefore(server.clock.now(), isWeekday));
      expect(expectErrorResponse(await intraday('BYMA:NOEXISTE', date), 404)).toContain('BYMA:NOEXISTE');
    });
  });

  describe('POST /api/visores/search/symbol/history', () => {
    const history = (body: unknown) => demo.api.post('/api/visores/search/symbol/history', body);

    it("answers exactly `limit` candles, oldest first, weekdays then today's closing at the live price", async () => {
      const symbol = 'MERV - XMEV - GGAL - 24hs';
      const { data } = expectBody(await history({ symbol: 'BYMA:GGAL', limit: 30 }), HistoryResponse);
      expect(data).toHaveLength(30);
      data.forEach((candle, i) => {
        expect(candle.time).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (i < data.length - 1) expect(isWeekday(Date.parse(`${candle.time}T00:00:00Z`)), candle.time).toBe(true);
        if (i > 0) expect(candle.time > data[i - 1]!.time, candle.time).toBe(true);
        expectCoherentCandle(candle);
      });
      // The last candle is today's, whatever the day (a weekend's is in the weekend test below).
      expect(data.at(-1)!.time).toBe(isoDay(marketDay(server.clock.now())));
      expect(data.at(-1)!.close).toBe(livePrice(symbol));
    });

    it('follows the live price as the market moves', async () => {
      const symbol = 'MERV - XMEV - AL30D - 24hs';
      const before = livePrice(symbol);
      let after = before;
      for (let i = 0; i < 100 && after === before; i++) {
        server.app.ctx.market.feeds.advance('tv', 200);
        after = livePrice(symbol);
      }
      expect(after).not.toBe(before);
      const { data } = expectBody(await history({ symbol, limit: 5 }), HistoryResponse);
      expect(data.at(-1)!.close).toBe(after);
    });

    it('gives the most candles allowed, 2520', async () => {
      const { data } = expectBody(await history({ symbol: 'BYMA:AL30', limit: 2520 }), HistoryResponse);
      expect(data).toHaveLength(2520);
      expect(new Set(data.map((candle) => candle.time)).size).toBe(2520);
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

    it('lists 12 dollar futures for consecutive months from the first one not yet expired, multiplier 1000 in ARS', () => {
      const futures = dollarFutures(instruments);
      expect(futures).toHaveLength(12);
      const now = new Date(server.clock.now());
      let month = now.getUTCFullYear() * 12 + now.getUTCMonth();
      const thisMonthCode = `${SPANISH_MONTHS[month % 12]}${String(Math.floor(month / 12) % 100).padStart(2, '0')}`;
      // This month's contract trades up to and including its last business day.
      if (lastWeekdayOf(thisMonthCode) < compactDay(now.getTime())) month += 1;
      futures.forEach((future, i) => {
        const m = month + i;
        const code = `${SPANISH_MONTHS[m % 12]}${String(Math.floor(m / 12) % 100).padStart(2, '0')}`;
        expect(future).toMatchObject({
          instrumentId: { marketId: 'ROFX', symbol: `DLR/${code}` },
          segment: { marketSegmentId: 'DDF', marketId: 'ROFX' },
          contractMultiplier: 1000,
          currency: 'ARS',
          maturityDate: lastWeekdayOf(code),
        });
      });
    });
  });
});

describe('daily candles on a weekend, on sqlite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(SQLITE);
    server.app.ctx.market.feeds.stopAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("end with the weekend day's own candle at the live price, as the simulator trades then; a reload on Monday no longer has it", async () => {
    // The next Saturday after the real today (the clock only moves forward), at noon in Buenos Aires.
    let saturday = marketDay(server.clock.now()) + DAY_MS;
    while (new Date(saturday).getUTCDay() !== 6) saturday += DAY_MS;
    const moveTo = (ms: number) => server.clock.advance(ms - server.clock.now());
    const symbol = 'MERV - XMEV - GGAL - 24hs';
    const daily = async (limit: number) => {
      const demo = await session(server);
      return expectBody(await demo.api.post('/api/visores/search/symbol/history', { symbol: 'BYMA:GGAL', limit }), HistoryResponse).data;
    };
    const intraday = async (date: string) => {
      const demo = await session(server);
      return expectBody(await demo.api.post('/api/get_intradia', { symbol: 'BYMA:GGAL', date }), IntradayResponse).data;
    };

    moveTo(saturday + 15 * 60 * 60_000);
    server.app.ctx.market.feeds.advance('tv', 3000);
    const weekend = await daily(3);
    // Thursday, Friday, Saturday.
    expect(weekend.map((candle) => candle.time)).toEqual([isoDay(saturday - 2 * DAY_MS), isoDay(saturday - DAY_MS), isoDay(saturday)]);
    expect(weekend.at(-1)!.close).toBe(server.app.ctx.market.hub.latest(symbol)!.LA!.price);
    // Friday's minutes still end at Friday's daily close.
    const friday = await intraday(isoDay(saturday - DAY_MS));
    expect(friday).toHaveLength(360);
    expect(friday.at(-1)!.close).toBe(weekend[1]!.close);

    // Monday: the weekend's sessions are not kept; Friday then Monday.
    moveTo(saturday + 2 * DAY_MS + 15 * 60 * 60_000);
    server.app.ctx.market.feeds.advance('tv', 3000);
    const monday = await daily(2);
    expect(monday.map((candle) => candle.time)).toEqual([isoDay(saturday - DAY_MS), isoDay(saturday + 2 * DAY_MS)]);
  });
});

describe("today's intraday candles on sqlite", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(SQLITE);
    server.app.ctx.market.feeds.stopAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('agree with the simulator, which trades around the clock: today is every minute since 00:00 in Buenos Aires, before the open too, ending at the live last price', async () => {
    // The next weekday after the real today, so the clock (which only moves forward) can stand
    // before its session, inside it, and after it.
    let day = marketDay(server.clock.now()) + DAY_MS;
    while (!isWeekday(day)) day += DAY_MS;
    const moveTo = (utcMinutes: number) => server.clock.advance(day + utcMinutes * 60_000 - server.clock.now());
    const symbol = 'MERV - XMEV - YPFD - 24hs';
    const intraday = async (date = isoDay(day)) => {
      // Signed in at each step: the clock jumps over the idle limit of a session.
      const demo = await session(server);
      return expectBody(await demo.api.post('/api/get_intradia', { symbol: 'BYMA:YPFD', date }), IntradayResponse).data;
    };
    const dayStart = day + 3 * 60 * 60_000; // 00:00 in Buenos Aires

    // 08:30 in Buenos Aires, long before the 11:00 open: the simulator trades, and so the
    // intraday answers the minutes it traded, the last one now, at the live price.
    moveTo(11 * 60 + 30);
    server.app.ctx.market.feeds.advance('tv', 3000);
    const early = await intraday();
    expect(early).toHaveLength(8 * 60 + 30 + 1); // 00:00 … 08:30
    expect(early[0]!.time).toBe(dayStart / 1000);
    expect(early.at(-1)!.time).toBe((day + (11 * 60 + 30) * 60_000) / 1000);
    expect(early.at(-1)!.close).toBe(server.app.ctx.market.hub.latest(symbol)!.LA!.price);
    early.forEach((candle, i) => {
      if (i > 0) expect(candle.time - early[i - 1]!.time).toBe(60);
      expectCoherentCandle(candle);
    });

    // After the close it still follows the simulator, up to now.
    moveTo(21 * 60);
    server.app.ctx.market.feeds.advance('tv', 3000);
    const late = await intraday();
    expect(late).toHaveLength(18 * 60 + 1);
    expect(late.at(-1)!.close).toBe(server.app.ctx.market.hub.latest(symbol)!.LA!.price);

    // 01:00 UTC of the next day is still this day in Buenos Aires: the next date has nothing yet.
    moveTo(24 * 60 + 60);
    expect(await intraday(isoDay(day + DAY_MS))).toEqual([]);
    expect(await intraday()).toHaveLength(22 * 60 + 1);

    // A day later it is a past day: its 11:00–17:00 session only.
    moveTo(2 * 24 * 60 + 4 * 60);
    const past = await intraday();
    expect(past).toHaveLength(360);
    expect(past[0]!.time).toBe((day + 14 * 60 * 60_000) / 1000);
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
