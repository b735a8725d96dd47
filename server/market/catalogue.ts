// The instruments Visores knows, in the Primary API's symbology and fields
// (reference/argentine-market.md, reference/primary-api.md). Built for a given day, so the
// futures months roll forward. Each carries the simulator's reference price.
import { addMonths, monthCode, yyyymmdd, type YearMonth } from '../../src/lib/calendar.js';
import type { FeedName, InstrumentKind } from '../../src/protocol/market.js';
import { createTradingCalendar, DAY_MS, type MarketName, type TradingCalendar } from './calendar.js';
import { instrumentKindOfCfi } from './primary/cfi.js';
import { priceDecimals } from './primary/normalize.js';
import type { PrimaryInstrumentDetail } from './primary/types.js';

/** 'other': listed by the exchange with a CFI code Visores does not classify (primary/cfi.ts). */
/** The two data centers of the spec: the futures exchange, and the securities ("tv") feed. */

export interface Instrument {
  instrumentId: { marketId: 'ROFX'; symbol: string };
  cficode: string;
  segment: { marketSegmentId: string; marketId: 'ROFX' };
  securityDescription: string;
  currency: 'ARS' | 'USD';
  minPriceIncrement: number;
  contractMultiplier: number;
  instrumentPricePrecision: number;
  /** YYYYMMDD, for instruments that expire. */
  maturityDate?: string;
  kind: InstrumentKind;
  feed: FeedName;
  /** Futures and options: the product (`DLR`); BYMA: the ticker (`AL30`). */
  product: string;
  /** BYMA settlement term. */
  term?: 'CI' | '24hs';
  strike?: number;
  optionType?: 'C' | 'P';
  /** Options: the future they are written on. */
  underlying?: string;
  /** Spreads: the near and far futures. */
  legs?: [string, string];
  /** Other ways to write the symbol: `ROFEX:DLR/DIC26`, `BYMA:AL30`. */
  aliases: string[];
}

export interface CatalogueSettings {
  /** ARS per USD, the BCRA A3500 reference. */
  spot: number;
  /** MEP and CCL implied dollar rates. */
  mep: number;
  ccl: number;
}

/** Reference prices of the simulator: the market as it looked when these lists were made. */
export const REFERENCE_PRICES = {
  stocks: {
    GGAL: 6500,
    YPFD: 42000,
    PAMP: 3600,
    BMA: 11000,
    TXAR: 900,
    ALUA: 850,
    CEPU: 1500,
    TGSU2: 6000,
    CRES: 1400,
    EDN: 2200,
    LOMA: 2800,
    SUPV: 3000,
    TECO2: 3800,
    COME: 130,
    BYMA: 380,
    VALO: 400,
    AGRO: 60,
    AUSO: 3300,
    BHIP: 380,
    BOLT: 30,
    BPAT: 2100,
    CAPX: 6800,
    CARC: 28,
    CECO2: 900,
    CELU: 480,
    CGPA2: 2200,
    CTIO: 3100,
    DGCU2: 1600,
    FERR: 25,
    HARG: 1300,
    MIRG: 21000,
    MOLI: 2600,
  },
  /** CEDEARs: foreign shares traded in pesos. */
  cedears: {
    AAPL: 17000,
    MSFT: 19000,
    GOOGL: 4200,
    AMZN: 2300,
    TSLA: 33000,
    NVDA: 11000,
    META: 48000,
    KO: 21000,
    MELI: 26000,
    SPY: 45000,
    QQQ: 47000,
    DIA: 33000,
    BABA: 8800,
    PBR: 14000,
    VIST: 30000,
    XOM: 23000,
    JPM: 34000,
    DIS: 12000,
    NFLX: 2800,
    BRKB: 31000,
    GOLD: 5600,
    INTC: 2800,
    AMD: 19000,
    WMT: 2900,
    PFE: 6000,
    MCD: 24000,
    V: 32000,
    MA: 36000,
    BA: 16000,
    NKE: 8000,
  },
  /** Bonds in USD per 100 nominal; the peso and cable lines follow from MEP and CCL. */
  bonds: { AL29: 66, GD29: 68, AL30: 62, GD30: 64, AL35: 68, GD35: 70, AE38: 70, GD38: 72, AL41: 60, GD41: 62, GD46: 65 },
  agro: { 'SOJ.ROS': 330, 'MAI.ROS': 180, 'TRI.ROS': 210 },
  /** Other ROFEX futures in USD: crude oil and gold. */
  commodities: { WTI: 72, ORO: 2650 },
  /** Single-stock futures listed on ROFEX. */
  stockFutures: ['GGAL', 'YPFD', 'PAMP', 'BMA', 'TXAR', 'ALUA'],
  merval: 2_800_000,
  rfx20: 140_000,
} as const;

/** The market whose hours an instrument keeps: the A3500 reference, BYMA's lines and index, or A3 Mercados (ROFEX). */
export function marketOf(instrument: Pick<Instrument, 'kind' | 'feed'>): MarketName {
  if (instrument.kind === 'spot') return 'a3500';
  return instrument.feed === 'tv' ? 'byma' : 'rofex';
}

function tickFor(price: number): number {
  if (price < 100) return 0.01;
  if (price < 1000) return 0.05;
  if (price < 10_000) return 0.5;
  return 1;
}

function decimals(tick: number): number {
  const text = String(tick);
  return text.includes('.') ? text.split('.')[1]!.length : 0;
}

const SPOT_SYMBOL = 'DLR/SPOT';

/** A symbol as the catalogue looks it up: trimmed, single spaces, upper case. */
export function foldSymbol(symbol: string): string {
  return symbol.trim().replace(/\s+/g, ' ').toUpperCase();
}

export class Catalogue {
  readonly instruments: Instrument[] = [];
  /** Reference price of each symbol, for the simulator. */
  readonly referencePrice = new Map<string, number>();
  private readonly byKey = new Map<string, Instrument>();
  /** Each name's own spelling (the symbol or the alias as listed), by its folded form. */
  private readonly spellings = new Map<string, string>();

  add(instrument: Instrument, price: number): void {
    this.instruments.push(instrument);
    this.referencePrice.set(instrument.instrumentId.symbol, price);
    for (const key of [instrument.instrumentId.symbol, ...instrument.aliases]) {
      this.byKey.set(key.toUpperCase(), instrument);
      this.spellings.set(key.toUpperCase(), key);
    }
  }

  /** Takes an instrument off the list (an expired contract): it no longer resolves or is found. */
  remove(symbol: string): void {
    const instrument = this.resolve(symbol);
    if (!instrument) return;
    this.instruments.splice(this.instruments.indexOf(instrument), 1);
    this.referencePrice.delete(instrument.instrumentId.symbol);
    for (const key of [instrument.instrumentId.symbol, ...instrument.aliases]) {
      this.byKey.delete(key.toUpperCase());
      this.spellings.delete(key.toUpperCase());
    }
  }

  /** Adds an instrument the exchange lists and the catalogue lacks (Primary instrument details). */
  addExchangeInstrument(detail: PrimaryInstrumentDetail): void {
    const symbol = detail.instrumentId.symbol;
    if (this.resolve(symbol)) return;
    const cfi = detail.cficode ?? '';
    const kind = instrumentKindOfCfi(cfi);
    const tick = detail.minPriceIncrement ?? 0.01;
    this.add(
      {
        instrumentId: { marketId: 'ROFX', symbol },
        cficode: cfi,
        segment: { marketSegmentId: detail.segment?.marketSegmentId ?? 'DDF', marketId: 'ROFX' },
        securityDescription: detail.securityDescription ?? symbol,
        currency: detail.currency === 'USD' ? 'USD' : 'ARS',
        minPriceIncrement: tick,
        contractMultiplier: detail.contractMultiplier ?? 1,
        // Enough for the exchange's precision, its increment and the tick of each price range.
        instrumentPricePrecision: priceDecimals(detail),
        ...(detail.maturityDate ? { maturityDate: detail.maturityDate } : {}),
        kind,
        feed: 'rofex',
        product: symbol.split(/[/ ]/)[0]!,
        aliases: [`ROFEX:${symbol}`, `ROFX:${symbol}`],
      },
      0,
    );
  }

  /** The instrument a symbol names, as the exchange writes it or with an exchange prefix. */
  resolve(symbol: string): Instrument | null {
    return this.byKey.get(foldSymbol(symbol)) ?? null;
  }

  /**
   * The catalogue's own spelling of the name a symbol is written as (`rofex:dlr/dic26` →
   * `ROFEX:DLR/DIC26`, ` DLR/DIC26 ` → `DLR/DIC26`), or null when it names nothing: the
   * variants of one name in letter case and spaces are one symbol.
   */
  spelling(symbol: string): string | null {
    return this.spellings.get(foldSymbol(symbol)) ?? null;
  }
}

const defaultCalendar = createTradingCalendar();

export function buildCatalogue(today: Date, settings: CatalogueSettings, calendar: TradingCalendar = defaultCalendar): Catalogue {
  const catalogue = new Catalogue();
  const thisMonth: YearMonth = { year: today.getUTCFullYear(), month: today.getUTCMonth() };
  /** A monthly contract expires on the month's last trading day (the exchange's calendar). */
  const expiryOf = ({ year, month }: YearMonth) => new Date(calendar.lastTradingDayOfMonth(year, month) * DAY_MS);
  // A future of this month that already expired is gone; the curve starts at the next one.
  // It still trades on its expiry day, so compare days, not instants.
  const startOfToday = Date.UTC(thisMonth.year, thisMonth.month, today.getUTCDate());
  const firstMonth = expiryOf(thisMonth).getTime() < startOfToday ? addMonths(thisMonth, 1) : thisMonth;
  const rofexAliases = (symbol: string) => [`ROFEX:${symbol}`, `ROFX:${symbol}`];

  catalogue.add(
    {
      instrumentId: { marketId: 'ROFX', symbol: SPOT_SYMBOL },
      cficode: 'MRCXXX',
      segment: { marketSegmentId: 'DDF', marketId: 'ROFX' },
      securityDescription: 'Dólar spot de referencia (BCRA Com. A 3500)',
      currency: 'ARS',
      minPriceIncrement: 0.0001,
      contractMultiplier: 1,
      instrumentPricePrecision: 4,
      kind: 'spot',
      feed: 'rofex',
      product: 'DLR',
      aliases: rofexAliases(SPOT_SYMBOL),
    },
    settings.spot,
  );

  const future = (
    product: string,
    month: YearMonth,
    description: string,
    price: number,
    options: { tick: number; multiplier: number; currency: 'ARS' | 'USD'; segment: string },
  ) => {
    const symbol = `${product}/${monthCode(month)}`;
    catalogue.add(
      {
        instrumentId: { marketId: 'ROFX', symbol },
        cficode: 'FXXXSX',
        segment: { marketSegmentId: options.segment, marketId: 'ROFX' },
        securityDescription: `${description} ${monthCode(month)}`,
        currency: options.currency,
        minPriceIncrement: options.tick,
        contractMultiplier: options.multiplier,
        instrumentPricePrecision: decimals(options.tick),
        maturityDate: yyyymmdd(expiryOf(month)),
        kind: 'future',
        feed: 'rofex',
        product,
        aliases: rofexAliases(symbol),
      },
      price,
    );
    return symbol;
  };

  // Dollar futures: the next 12 months, multiplier 1000, ARS.
  const dlrSymbols: string[] = [];
  for (let i = 0; i < 12; i++) {
    dlrSymbols.push(
      future('DLR', addMonths(firstMonth, i), 'Futuro de dólar', settings.spot * (1 + 0.025 * (i + 1)), {
        tick: 0.5,
        multiplier: 1000,
        currency: 'ARS',
        segment: 'DDF',
      }),
    );
  }
  // Index futures on the ROFEX 20 and agricultural futures: the next 6 months.
  for (let i = 0; i < 6; i++) {
    future('RFX20', addMonths(firstMonth, i), 'Futuro de índice ROFEX 20', REFERENCE_PRICES.rfx20 * (1 + 0.02 * (i + 1)), {
      tick: 5,
      multiplier: 1,
      currency: 'ARS',
      segment: 'DDF',
    });
    for (const [product, price] of Object.entries(REFERENCE_PRICES.agro)) {
      const names: Record<string, string> = { 'SOJ.ROS': 'Soja Rosario', 'MAI.ROS': 'Maíz Rosario', 'TRI.ROS': 'Trigo Rosario' };
      future(product, addMonths(firstMonth, i), `Futuro de ${names[product]}`, price * (1 + 0.005 * (i + 1)), {
        tick: 0.1,
        multiplier: 100,
        currency: 'USD',
        segment: 'DDA',
      });
    }
  }

  const option = (
    underlying: string,
    strike: number,
    type: 'C' | 'P',
    product: string,
    tick: number,
    multiplier: number,
    currency: 'ARS' | 'USD',
    segment: string,
  ) => {
    const symbol = `${underlying} ${strike} ${type}`;
    const forward = catalogue.referencePrice.get(underlying)!;
    const intrinsic = Math.max(0, type === 'C' ? forward - strike : strike - forward);
    catalogue.add(
      {
        instrumentId: { marketId: 'ROFX', symbol },
        cficode: type === 'C' ? 'OCAFXS' : 'OPAFXS',
        segment: { marketSegmentId: segment, marketId: 'ROFX' },
        securityDescription: `${type === 'C' ? 'Call' : 'Put'} ${underlying} ${strike}`,
        currency,
        minPriceIncrement: tick,
        contractMultiplier: multiplier,
        instrumentPricePrecision: decimals(tick),
        maturityDate: catalogue.resolve(underlying)!.maturityDate!,
        kind: 'option',
        feed: 'rofex',
        product,
        strike,
        optionType: type,
        underlying,
        aliases: rofexAliases(symbol),
      },
      intrinsic + forward * 0.012,
    );
  };
  // Options on the six nearest dollar futures: thirteen strikes around the forward, calls and puts.
  for (const underlying of dlrSymbols.slice(0, 6)) {
    const atm = Math.round(catalogue.referencePrice.get(underlying)! / 50) * 50;
    for (let step = -6; step <= 6; step++) for (const type of ['C', 'P'] as const) option(underlying, atm + step * 50, type, 'DLR', 0.1, 1000, 'ARS', 'DDF');
  }
  // Options on the two nearest soy and corn futures: nine strikes, every 5 USD.
  for (const product of ['SOJ.ROS', 'MAI.ROS']) {
    for (let i = 0; i < 2; i++) {
      const underlying = `${product}/${monthCode(addMonths(firstMonth, i))}`;
      const atm = Math.round(catalogue.referencePrice.get(underlying)! / 5) * 5;
      for (let step = -4; step <= 4; step++) for (const type of ['C', 'P'] as const) option(underlying, atm + step * 5, type, product, 0.1, 100, 'USD', 'DDA');
    }
  }

  // Calendar spreads of consecutive dollar futures (DLR/ABR27/MAY27), priced far minus near.
  for (let i = 0; i + 1 < dlrSymbols.length; i++) {
    const [near, far] = [dlrSymbols[i]!, dlrSymbols[i + 1]!];
    const symbol = `${near}/${far.split('/')[1]}`;
    catalogue.add(
      {
        instrumentId: { marketId: 'ROFX', symbol },
        cficode: 'FMXXXX',
        segment: { marketSegmentId: 'DDF', marketId: 'ROFX' },
        securityDescription: `Pase de dólar ${near.split('/')[1]}/${far.split('/')[1]}`,
        currency: 'ARS',
        minPriceIncrement: 0.01,
        contractMultiplier: 1000,
        instrumentPricePrecision: 2,
        maturityDate: catalogue.resolve(near)!.maturityDate!,
        kind: 'spread',
        feed: 'rofex',
        product: 'DLR',
        legs: [near, far],
        aliases: rofexAliases(symbol),
      },
      catalogue.referencePrice.get(far)! - catalogue.referencePrice.get(near)!,
    );
  }

  // Crude oil, gold and single-stock futures: the next four months.
  for (let i = 0; i < 4; i++) {
    const month = addMonths(firstMonth, i);
    for (const [product, price] of Object.entries(REFERENCE_PRICES.commodities)) {
      future(product, month, product === 'WTI' ? 'Futuro de petróleo WTI' : 'Futuro de oro', price * (1 + 0.004 * (i + 1)), {
        tick: 0.01,
        multiplier: product === 'WTI' ? 100 : 1,
        currency: 'USD',
        segment: 'DDF',
      });
    }
    for (const ticker of REFERENCE_PRICES.stockFutures) {
      const spot = REFERENCE_PRICES.stocks[ticker as keyof typeof REFERENCE_PRICES.stocks];
      future(ticker, month, `Futuro de ${ticker}`, spot * (1 + 0.025 * (i + 1)), { tick: tickFor(spot), multiplier: 100, currency: 'ARS', segment: 'DDF' });
    }
  }

  const byma = (ticker: string, kind: 'stock' | 'bond', description: string, price: number, currency: 'ARS' | 'USD') => {
    for (const term of ['CI', '24hs'] as const) {
      const symbol = `MERV - XMEV - ${ticker} - ${term}`;
      const tick = tickFor(price);
      catalogue.add(
        {
          instrumentId: { marketId: 'ROFX', symbol },
          cficode: kind === 'stock' ? 'ESXXXX' : 'DBXXXX',
          segment: { marketSegmentId: 'MERV', marketId: 'ROFX' },
          securityDescription: `${description} (${term})`,
          currency,
          minPriceIncrement: tick,
          contractMultiplier: 1,
          instrumentPricePrecision: decimals(tick),
          kind,
          feed: 'tv',
          product: ticker,
          term,
          // `BYMA:AL30` is the 24hs line, the standard term since May 2024.
          aliases: term === '24hs' ? [`BYMA:${ticker}`, `BYMA:${ticker} - 24hs`] : [`BYMA:${ticker} - CI`],
        },
        price,
      );
    }
  };
  for (const [ticker, price] of Object.entries(REFERENCE_PRICES.stocks)) byma(ticker, 'stock', `Acción ${ticker}`, price, 'ARS');
  for (const [ticker, price] of Object.entries(REFERENCE_PRICES.cedears)) byma(ticker, 'stock', `CEDEAR ${ticker}`, price, 'ARS');
  for (const [ticker, usd] of Object.entries(REFERENCE_PRICES.bonds)) {
    byma(ticker, 'bond', `Bono ${ticker} en pesos`, usd * settings.mep, 'ARS');
    byma(`${ticker}D`, 'bond', `Bono ${ticker} en dólar MEP`, usd, 'USD');
    byma(`${ticker}C`, 'bond', `Bono ${ticker} en dólar cable`, (usd * settings.mep) / settings.ccl, 'USD');
  }

  for (const [symbol, description, price, feed, segment] of [
    ['I.RFX20', 'Índice ROFEX 20', REFERENCE_PRICES.rfx20, 'rofex', 'DDF'],
    ['I.MERVAL', 'Índice S&P Merval', REFERENCE_PRICES.merval, 'tv', 'MERV'],
  ] as const) {
    catalogue.add(
      {
        instrumentId: { marketId: 'ROFX', symbol },
        cficode: 'MRIXXX',
        segment: { marketSegmentId: segment, marketId: 'ROFX' },
        securityDescription: description,
        currency: 'ARS',
        minPriceIncrement: 0.01,
        contractMultiplier: 1,
        instrumentPricePrecision: 2,
        kind: 'index',
        feed,
        product: symbol,
        aliases: feed === 'rofex' ? rofexAliases(symbol) : [`BYMA:${symbol}`],
      },
      price,
    );
  }
  return catalogue;
}

/** Products a trader names in words (accents and case folded): «dólar» is the DLR contracts. */
const PRODUCT_WORDS: Record<string, string> = { DOLAR: 'DLR', SOJA: 'SOJ.ROS', MAIZ: 'MAI.ROS', TRIGO: 'TRI.ROS' };

/** Among matches alike: the outright contracts and lines, then spreads, then options. */
const KIND_ORDER: Partial<Record<InstrumentKind, number>> = { spread: 1, option: 2 };

/** Ranked matches of a search text by ticker, symbol and description (accents and case ignored). */
export function searchInstruments(catalogue: Catalogue, text: string, limit = 50): Instrument[] {
  const fold = (value: string) =>
    value
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase();
  const query = fold(text.trim());
  if (!query) return [];
  const namedProduct = PRODUCT_WORDS[query];
  const scored: { instrument: Instrument; score: number }[] = [];
  for (const instrument of catalogue.instruments) {
    const symbol = fold(instrument.instrumentId.symbol);
    const product = fold(instrument.product);
    const aliases = instrument.aliases.map(fold);
    let score = 0;
    if (symbol === query || aliases.includes(query)) score = 100;
    else if (product === query) score = 90;
    else if (product === namedProduct) score = 85;
    else if (product.startsWith(query)) score = 80;
    else if (symbol.includes(query) || aliases.some((alias) => alias.includes(query))) score = 60;
    else if (fold(instrument.securityDescription).includes(query)) score = 40;
    // Prefer the standard line (24hs) and nearer expiries among equals.
    if (score > 0) scored.push({ instrument, score: score - (instrument.term === 'CI' ? 1 : 0) });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      (KIND_ORDER[a.instrument.kind] ?? 0) - (KIND_ORDER[b.instrument.kind] ?? 0) ||
      (a.instrument.maturityDate ?? '').localeCompare(b.instrument.maturityDate ?? '') ||
      a.instrument.instrumentId.symbol.localeCompare(b.instrument.instrumentId.symbol),
  );
  return scored.slice(0, limit).map((entry) => entry.instrument);
}
