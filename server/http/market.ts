// Market REST (issue 4): search, formula symbols, expirations, history, instruments, and the
// admin's feed controls.
import type { FastifyInstance } from 'fastify';
import { parseFormula } from '../../src/lib/formula.js';
import {
  ExpirationRequest,
  FeedRateRequest,
  FormulaRequest,
  HistoryRequest,
  IntradayRequest,
  SearchRequest,
  type SearchResponse,
} from '../../src/protocol/market.js';
import { searchInstruments, type Instrument } from '../market/catalogue.js';
import { dayOfIso, isoOfDay } from '../market/calendar.js';
import { FEED_NAMES } from '../market/feeds.js';
import { recordAdminAction, requireAdmin } from './admin.js';
import type { AppContext } from '../context.js';
import { ConflictError, InvalidError, NotFoundError } from '../errors.js';
import { parseBody } from './errors.js';

const unknownSymbol = (symbol: string) => `Símbolo desconocido: ${symbol}`;

/** The Primary API's instrument record (reference/primary-api.md), without our own fields. */
function primaryFields(instrument: Instrument) {
  const { instrumentId, cficode, segment, securityDescription, currency, minPriceIncrement, contractMultiplier, instrumentPricePrecision, maturityDate } =
    instrument;
  return {
    instrumentId,
    cficode,
    segment,
    securityDescription,
    currency,
    minPriceIncrement,
    contractMultiplier,
    instrumentPricePrecision,
    ...(maturityDate ? { maturityDate } : {}),
  };
}

export function marketRoutes(ctx: AppContext) {
  const { catalogue, feeds } = ctx.market;
  const { model } = feeds;

  const resolve = (symbol: string): Instrument => {
    const instrument = catalogue.resolve(symbol);
    if (!instrument) throw new NotFoundError(unknownSymbol(symbol));
    return instrument;
  };
  return async (app: FastifyInstance) => {
    app.post('/visores/search', async (request) => {
      const { symbol } = parseBody(SearchRequest, request.body);
      const data = searchInstruments(catalogue, symbol).map((instrument) => ({
        symbol: instrument.instrumentId.symbol,
        description: instrument.securityDescription,
        kind: instrument.kind,
        currency: instrument.currency,
        maturityDate: instrument.maturityDate ?? null,
        aliases: instrument.aliases,
        contractSize: instrument.contractMultiplier,
        tick: instrument.minPriceIncrement,
        decimals: instrument.instrumentPricePrecision,
      }));
      return { status: 'success', data } satisfies SearchResponse;
    });

    app.post('/search_symbols_formula', async (request) => {
      const { formula } = parseBody(FormulaRequest, request.body);
      const parsed = parseFormula(formula);
      if (!parsed.ok) throw new InvalidError(`La fórmula no es válida: ${parsed.error}`);
      // Symbols the catalogue does not know are listed, not refused: a formula may name an
      // instrument of a connected exchange that the catalogue lacks.
      const unknown = parsed.symbols.filter((symbol) => !catalogue.resolve(symbol));
      return { status: 'success', data: { symbols: parsed.symbols, parses: true, hasOperators: parsed.hasOperators, unknown } };
    });

    app.post('/get_expiration_contract', async (request) => {
      const { contract_name } = parseBody(ExpirationRequest, request.body);
      const instrument = resolve(contract_name);
      if (!instrument.maturityDate) throw new NotFoundError(`${contract_name} no tiene vencimiento`);
      return { status: 'success', expiration: instrument.maturityDate };
    });

    app.post('/get_intradia', async (request) => {
      const { symbol, date } = parseBody(IntradayRequest, request.body);
      const day = dayOfIso(date);
      if (day == null) throw new InvalidError(`La fecha ${date} no es válida: use AAAA-MM-DD`);
      const instrument = resolve(symbol);
      // The session's minutes of a trading day (a Buenos Aires date), up to now; none on other days.
      // On the real exchange, its own trades.
      const exchange = feeds.exchangeHistoryOf(instrument);
      const candles = exchange ? await exchange.minuteCandles(instrument.instrumentId.symbol, day) : model.minuteCandles(instrument, day, ctx.market.now());
      // time: epoch seconds of the minute, as charting libraries take it.
      return { status: 'success', data: candles.map((c) => ({ ...c, time: Math.floor(c.time / 1000) })) };
    });

    app.post('/visores/search/symbol/history', async (request) => {
      const { symbol, limit } = parseBody(HistoryRequest, request.body);
      const instrument = resolve(symbol);
      // Ten years of sessions take a while the first time: other requests are served meanwhile.
      const exchange = feeds.exchangeHistoryOf(instrument);
      const candles = exchange
        ? await exchange.dailyCandles(instrument.instrumentId.symbol, limit, ctx.market.now())
        : await model.dailyCandlesYielding(instrument, limit, ctx.market.now());
      // time: the session day, YYYY-MM-DD.
      const data = candles.map(({ day, time: _time, ...candle }) => ({ time: isoOfDay(day), ...candle }));
      return { status: 'success', data };
    });

    app.get('/visores/primary/instruments', async () => ({ status: 'success', instruments: catalogue.instruments.map(primaryFields) }));

    // ----------------------------------------------------------------- admin: feeds
    await app.register(async (admin) => {
      admin.addHook('onRequest', requireAdmin);
      const feedName = (name: string) => {
        if (!feeds.isFeed(name)) throw new NotFoundError(`No existe el feed ${name}: use ${FEED_NAMES.join(' o ')}`);
        return name;
      };
      // With Redis these answer for every process, not only the one the request reached.
      admin.get('/admin/feeds', async () => ({ status: 'success', self: ctx.market.processId, ...(await ctx.market.admin.feeds()) }));
      // Open market sockets: which process, who, since when, and what each watches (tests
      // and operators see that a browser holds one socket however many tabs it has).
      admin.get<{ Params: { name: string } }>('/admin/feeds/:name/symbols', async (request) => ({
        status: 'success',
        data: await ctx.market.admin.feedSymbols(feedName(request.params.name)),
      }));
      admin.get('/admin/market/sockets', async () => ({ status: 'success', data: await ctx.market.admin.sockets() }));
      // What an admin did to a feed goes to the operator log once it is done: a stopped feed
      // marks every trader's prices stale, and the log says who and when.
      admin.post<{ Params: { name: string } }>('/admin/feeds/:name/start', async (request) => {
        const name = feedName(request.params.name);
        const data = await ctx.market.admin.control(name, { running: true });
        await recordAdminAction(ctx, request, 'feed_start', { feed: name });
        return { status: 'success', data };
      });
      admin.post<{ Params: { name: string } }>('/admin/feeds/:name/stop', async (request) => {
        const name = feedName(request.params.name);
        const data = await ctx.market.admin.control(name, { running: false });
        await recordAdminAction(ctx, request, 'feed_stop', { feed: name });
        return { status: 'success', data };
      });
      admin.put<{ Params: { name: string } }>('/admin/feeds/:name', async (request) => {
        const name = feedName(request.params.name);
        const { rate } = parseBody(FeedRateRequest, request.body);
        if (feeds.status(name).source === 'primary') throw new ConflictError(`El feed ${name} es el mercado real: su ritmo no se puede cambiar`);
        const data = await ctx.market.admin.control(name, { rate });
        await recordAdminAction(ctx, request, 'feed_rate', { feed: name, rate });
        return { status: 'success', data };
      });
    });
  };
}
