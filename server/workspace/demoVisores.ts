// The sample visores the `demo` account gets when the server creates the demo accounts
// (issue 18, "a first run that shows the product"): three folders a trader recognises, each
// with a visor of live quotes and formulas; the Dólar visor also holds a chart, the DLR curve
// and the positions of demo's paper-broker account (issue 19), so a first sign-in shows every
// section type working. The symbols are resolved against the catalogue
// of this start, so an expired futures month is never seeded; everything goes through the
// workspace service (folders by a tree save, visores placed in them, then their sections)
// and is checked with the protocol's own schemas first.
import { randomBytes } from 'node:crypto';
import { yyyymmdd } from '../../src/lib/calendar.js';
import { parseFormula } from '../../src/lib/formula.js';
import { NewVisorRequest, Secciones, type FolderNode, type Section } from '../../src/protocol/workspace.js';
import { PAPER_BROKER_URL } from '../../src/protocol/broker.js';
import type { Catalogue, Instrument } from '../market/catalogue.js';
import { paperAccountName } from '../broker/paper.js';
import type { UserRow } from '../db/schema.js';
import type { WorkspaceService } from './service.js';

type Quotes = Extract<Section, { type: 'quotes' }>;
type Formulas = Extract<Section, { type: 'formula' }>;
type Chart = Extract<Section, { type: 'chart' }>;

/** One sample visor: where it goes, how it looks, and its sections. */
export interface DemoVisor {
  folder: { name: string; emoji: string };
  title: string;
  emoji: string;
  color: string;
  fav: boolean;
  secciones: Section[];
}

/** How many dollar futures months the Dólar board shows: the next listed contracts. */
const DLR_MONTHS = 6;
/** The leading shares of the S&P Merval panel, as BYMA lists them. */
const LEADING_SHARES = ['GGAL', 'YPFD', 'PAMP', 'BMA', 'TXAR', 'ALUA', 'CEPU', 'TGSU2', 'LOMA', 'SUPV', 'TECO2', 'CRES', 'EDN', 'BYMA', 'COME', 'VALO'];

const FUTURES_COLUMNS: Quotes['config']['columns'] = ['bid_size', 'bid', 'ask', 'ask_size', 'last', 'change_pct', 'volume', 'open_interest', 'expiration'];
const SECURITIES_COLUMNS: Quotes['config']['columns'] = ['bid_size', 'bid', 'ask', 'ask_size', 'last', 'change', 'change_pct', 'volume', 'time'];

/** The catalogue's own name of a symbol; throws when the catalogue does not know it (a seed that names nothing is a bug). */
function canonical(catalogue: Catalogue, symbol: string): string {
  const instrument = catalogue.resolve(symbol);
  if (!instrument) throw new Error(`demo visores: the catalogue has no ${symbol}`);
  return instrument.instrumentId.symbol;
}

/** The next `count` dollar futures listed today, nearest first (never an expired month). */
export function nextDollarFutures(catalogue: Catalogue, today: Date, count: number): Instrument[] {
  const day = yyyymmdd(today);
  return catalogue.instruments
    .filter((instrument) => instrument.kind === 'future' && instrument.product === 'DLR' && instrument.maturityDate != null && instrument.maturityDate >= day)
    .sort((a, b) => a.maturityDate!.localeCompare(b.maturityDate!))
    .slice(0, count);
}

function quotes(id: string, title: string, symbols: string[], columns: Quotes['config']['columns'], layout: Section['layout']): Quotes {
  return { id, type: 'quotes', title, layout, config: { rows: symbols.map((symbol) => ({ kind: 'symbol' as const, symbol })), columns } };
}

function formulas(id: string, title: string, list: Formulas['config']['formulas'], layout: Section['layout']): Formulas {
  return { id, type: 'formula', title, layout, config: { formulas: list } };
}

/** The symbols of a board's symbol rows, in order. */
export function boardSymbols(board: Quotes): string[] {
  return board.config.rows.flatMap((row) => (row.kind === 'symbol' ? [row.symbol] : []));
}

function chart(id: string, title: string, series: string[], range: Chart['config']['range'], layout: Section['layout']): Chart {
  return { id, type: 'chart', title, layout, config: { series, interval: '1d', range } };
}

/** The sample visores, with the symbols of `catalogue` on `today`; the positions are of the paper broker's `account`. */
export function demoVisores(catalogue: Catalogue, today: Date, account: string): DemoVisor[] {
  const byma = (ticker: string) => canonical(catalogue, `BYMA:${ticker}`);
  const spot = canonical(catalogue, 'ROFEX:DLR/SPOT');
  const months = nextDollarFutures(catalogue, today, DLR_MONTHS).map((instrument) => instrument.instrumentId.symbol);
  if (months.length === 0) throw new Error('demo visores: the catalogue lists no dollar futures');
  const nearest = months[0]!;
  const mep = (bond: string) => `BYMA:${bond} / BYMA:${bond}D`;
  const ccl = (bond: string) => `BYMA:${bond} / BYMA:${bond}C`;

  const bonds = ['AL30', 'GD30'];
  return [
    {
      folder: { name: 'Dólar', emoji: '💵' },
      title: 'Dólar: futuros y MEP',
      emoji: '💵',
      color: '#16a34a',
      fav: true,
      secciones: [
        quotes('dolar-futuros', 'Futuros de dólar y A3500', [spot, ...months], FUTURES_COLUMNS, { x: 0, y: 0, w: 8, h: 10 }),
        formulas(
          'dolar-formulas',
          'Dólares implícitos',
          [
            { name: 'Dólar MEP', expression: mep('AL30'), unit: 'price' },
            { name: 'Dólar CCL', expression: ccl('AL30'), unit: 'price' },
            // Two ratios and a rate: their changes read in percentage points, not in percent of themselves.
            { name: 'Canje (CCL / MEP)', expression: `(${ccl('AL30')}) / (${mep('AL30')})`, unit: 'ratio' },
            { name: 'Brecha (MEP / A3500)', expression: `(${mep('AL30')}) / ROFEX:DLR/SPOT`, unit: 'ratio' },
            { name: `Devaluación implícita ${nearest.split('/')[1]} (%)`, expression: `(ROFEX:${nearest} / ROFEX:DLR/SPOT - 1) * 100`, unit: 'rate' },
          ],
          { x: 8, y: 0, w: 4, h: 10 },
        ),
        chart('dolar-grafico', `Futuro ${nearest}`, [nearest], '3M', { x: 0, y: 20, w: 6, h: 10 }),
        {
          id: 'dolar-curva',
          type: 'curve',
          title: 'Curva DLR: tasas implícitas',
          layout: { x: 0, y: 10, w: 12, h: 10 },
          config: { product: 'DLR', spot, dayCount: 'calendar', rate: 'tna' },
        },
        {
          id: 'dolar-posiciones',
          type: 'positions',
          title: 'Posiciones (cuenta simulada)',
          layout: { x: 6, y: 20, w: 6, h: 10 },
          config: { account, brokerUrl: PAPER_BROKER_URL },
        },
      ],
    },
    {
      folder: { name: 'Bonos', emoji: '📜' },
      title: 'Bonos AL30 y GD30',
      emoji: '📜',
      color: '#2563eb',
      fav: false,
      secciones: [
        quotes(
          'bonos-lineas',
          'AL30 y GD30: pesos, MEP y cable',
          bonds.flatMap((bond) => [byma(bond), byma(`${bond}D`), byma(`${bond}C`)]),
          SECURITIES_COLUMNS,
          {
            x: 0,
            y: 0,
            w: 8,
            h: 10,
          },
        ),
        formulas(
          'bonos-formulas',
          'Dólar de cada bono',
          bonds.flatMap((bond) => [
            { name: `MEP ${bond}`, expression: mep(bond), unit: 'price' as const },
            { name: `CCL ${bond}`, expression: ccl(bond), unit: 'price' as const },
          ]),
          { x: 8, y: 0, w: 4, h: 10 },
        ),
        chart('bonos-mep', 'Dólar MEP de AL30 y GD30', [mep('AL30'), mep('GD30')], '6M', { x: 0, y: 10, w: 12, h: 9 }),
      ],
    },
    {
      folder: { name: 'Acciones líderes', emoji: '📈' },
      title: 'Panel líder Merval',
      emoji: '📈',
      color: '#ea580c',
      fav: false,
      secciones: [
        quotes('acciones-lideres', 'Acciones líderes', [canonical(catalogue, 'BYMA:I.MERVAL'), ...LEADING_SHARES.map(byma)], SECURITIES_COLUMNS, {
          x: 0,
          y: 0,
          w: 12,
          h: 14,
        }),
      ],
    },
  ];
}

/** Checks the sample visores with the protocol's schemas and the formula parser; throws on the first problem. */
export function checkDemoVisores(visores: DemoVisor[], catalogue: Catalogue): void {
  for (const visor of visores) {
    NewVisorRequest.parse({ title: visor.title, emoji: visor.emoji, color: visor.color });
    Secciones.parse(visor.secciones);
    for (const section of visor.secciones) {
      if (section.type === 'quotes') for (const symbol of boardSymbols(section)) canonical(catalogue, symbol);
      if (section.type === 'curve' && section.config.spot) canonical(catalogue, section.config.spot);
      // A chart's series is a symbol as the catalogue names it, or a formula.
      const expressions =
        section.type === 'formula'
          ? section.config.formulas
          : section.type === 'chart'
            ? section.config.series.filter((series) => !catalogue.resolve(series)).map((expression) => ({ name: section.title, expression }))
            : [];
      for (const { name, expression } of expressions) {
        const parsed = parseFormula(expression);
        if (!parsed.ok) throw new Error(`demo visores: ${name}: ${parsed.error}`);
        for (const symbol of parsed.symbols) canonical(catalogue, symbol);
      }
    }
  }
}

const folderId = () => randomBytes(12).toString('hex');

/**
 * Gives `user` (the demo account, just created) the sample visores: one folder each, the
 * visor placed in it, then its sections and favourite. Returns the visor ids.
 */
export async function seedDemoVisores(workspace: WorkspaceService, catalogue: Catalogue, user: UserRow, today: Date): Promise<string[]> {
  const visores = demoVisores(catalogue, today, paperAccountName(user.username));
  checkDemoVisores(visores, catalogue);
  const actor = { user, ip: null };
  const folders: FolderNode[] = visores.map((visor) => ({ folder_id: folderId(), name: visor.folder.name, emoji: visor.folder.emoji, sub: [] }));
  const tree = await workspace.getTree(user);
  // Only folders are added: the save deletes nothing, so it needs no If-Match.
  await workspace.saveTree(actor, [...tree.nodes, ...folders], tree.version);
  const ids: string[] = [];
  for (const [index, visor] of visores.entries()) {
    const input = NewVisorRequest.parse({ title: visor.title, emoji: visor.emoji, color: visor.color, folder_id: folders[index]!.folder_id });
    const { visor: created } = await workspace.createVisor(actor, input);
    await workspace.updateSecciones(actor, created.visor_id, visor.secciones);
    if (visor.fav) await workspace.toggleFav(actor, created.visor_id);
    ids.push(created.visor_id);
  }
  return ids;
}
