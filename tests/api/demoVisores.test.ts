// The demo account's sample visores (issue 18): a fresh server gives `demo` the folders
// Dólar, Bonos and Acciones líderes with their visores and sections (Dólar: every section type;
// Bonos: a chart of MEP formulas), every symbol and
// formula names an instrument of the catalogue (no expired futures month), a second start
// on the same database adds nothing, admin gets none, and SEED_DEMO_USERS=false seeds nothing.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectResponse } from '../../src/protocol/broker.js';
import { SearchResponse } from '../../src/protocol/market.js';
import { FolderTreeResponse, VisorListResponse, VisorResponse, isFolderNode, type Visor } from '../../src/protocol/workspace.js';
import { yyyymmdd } from '../../src/lib/calendar.js';
import { buildApp } from '../../server/app.js';
import { boardSymbols, nextDollarFutures } from '../../server/workspace/demoVisores.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, expectBody, expectSuccess, session, type Session } from './helpers.js';

describe.each(databaseTargets())('demo visores on $name', (target) => {
  let server: TestServer;
  let demo: Session;

  beforeAll(async () => {
    server = await startServer(target);
    demo = await session(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const treeOf = async (who: Session) => expectBody(await who.api.get(`/api/visores/${who.user._id}/folders`), FolderTreeResponse);
  /** The user's visores whole: the list (without sections), then each one read, which the list must agree with. */
  const visoresOf = async (who: Session) => {
    const listed = expectBody(await who.api.get(`/api/visores/${who.user._id}`), VisorListResponse).data;
    return Promise.all(
      listed.map(async (summary) => {
        const whole = expectBody(await who.api.get(`/api/visores/${summary.visor_id}/get`), VisorResponse).data;
        const { secciones: _sections, ...rest } = whole;
        expect(summary).toEqual(rest);
        return whole;
      }),
    );
  };
  const byTitle = (visores: Visor[], title: RegExp) => {
    const found = visores.find((visor) => title.test(visor.title));
    expect(found, `a visor titled ${String(title)}`).toBeDefined();
    return found!;
  };

  it('gives demo three folders, each holding one visor with its sections', async () => {
    expect(server.app.seeded).toEqual(['demo', 'admin']);
    const tree = await treeOf(demo);
    const folders = tree.data.filter(isFolderNode);
    expect(folders.map((folder) => folder.name)).toEqual(['Dólar', 'Bonos', 'Acciones líderes']);
    const visores = await visoresOf(demo);
    expect(visores).toHaveLength(3);
    for (const folder of folders) {
      expect(folder.sub, folder.name).toHaveLength(1);
      const leaf = folder.sub[0]!;
      expect(isFolderNode(leaf)).toBe(false);
      if (!isFolderNode(leaf)) expect(visores.map((visor) => visor.visor_id)).toContain(leaf.visor_id);
    }

    const dolar = byTitle(visores, /^Dólar/);
    expect(dolar).toMatchObject({ emoji: '💵', fav: true, public: false });
    expect(dolar.secciones.map((section) => section.type)).toEqual(['quotes', 'formula', 'chart', 'curve', 'positions']);
    const board = dolar.secciones[0]!;
    const formulas = dolar.secciones[1]!;
    expect(board.layout).toEqual({ x: 0, y: 0, w: 8, h: 10 });
    expect(formulas.layout).toEqual({ x: 8, y: 0, w: 4, h: 10 });
    if (formulas.type !== 'formula') throw new Error('the second section is the formulas');
    expect(formulas.config.formulas.map((formula) => formula.name).slice(0, 4)).toEqual([
      'Dólar MEP',
      'Dólar CCL',
      'Canje (CCL / MEP)',
      'Brecha (MEP / A3500)',
    ]);
    expect(formulas.config.formulas[0]!.expression).toBe('BYMA:AL30 / BYMA:AL30D');
    expect(formulas.config.formulas[1]!.expression).toBe('BYMA:AL30 / BYMA:AL30C');
    expect(formulas.config.formulas[3]!.expression).toContain('ROFEX:DLR/SPOT');
    // Issue 19: a chart of the nearest dollar future, the DLR curve against the A3500 and the
    // positions of demo's account on the paper broker (the one its sim:// session lists).
    const [, , chart, curve, positions] = dolar.secciones;
    if (chart?.type !== 'chart' || curve?.type !== 'curve' || positions?.type !== 'positions') throw new Error('Dólar has a chart, a curve and positions');
    if (board.type !== 'quotes') throw new Error('the first section is the board');
    expect(chart.config).toEqual({ series: [boardSymbols(board)[1]], interval: '1d', range: '3M' });
    expect(curve.config).toEqual({ product: 'DLR', spot: 'DLR/SPOT', dayCount: 'calendar', rate: 'tna' });
    const connected = expectBody(await demo.api.post('/api/primary/sessions/connect', { url: 'sim://', username: '', password: '' }), ConnectResponse);
    expect(connected.accounts).toEqual([positions.config.account]);
    expect(positions.config).toEqual({ account: 'DEMO-DEMO', brokerUrl: 'sim://' });

    const bonos = byTitle(visores, /Bonos/);
    expect(bonos.secciones.map((section) => section.type)).toEqual(['quotes', 'formula', 'chart']);
    const bondBoard = bonos.secciones.find((section) => section.type === 'quotes');
    if (bondBoard?.type !== 'quotes') throw new Error('Bonos has a quote board');
    for (const line of ['AL30', 'AL30D', 'AL30C', 'GD30', 'GD30D', 'GD30C']) expect(boardSymbols(bondBoard)).toContain(`MERV - XMEV - ${line} - 24hs`);

    const acciones = byTitle(visores, /líder/);
    const shares = acciones.secciones[0]!;
    if (shares.type !== 'quotes') throw new Error('Acciones líderes is a quote board');
    for (const ticker of ['GGAL', 'YPFD', 'PAMP', 'BMA']) expect(boardSymbols(shares)).toContain(`MERV - XMEV - ${ticker} - 24hs`);
  });

  it('names only instruments of the catalogue: the A3500 and the next dollar futures, none expired', async () => {
    const visores = await visoresOf(demo);
    const today = yyyymmdd(new Date(server.clock.now()));
    const catalogue = server.app.ctx.market.catalogue;
    const dolar = byTitle(visores, /^Dólar/);
    const board = dolar.secciones[0]!;
    if (board.type !== 'quotes') throw new Error('the first section is the board');
    const months = nextDollarFutures(catalogue, new Date(server.clock.now()), 6).map((instrument) => instrument.instrumentId.symbol);
    expect(months).toHaveLength(6);
    expect(boardSymbols(board)).toEqual(['DLR/SPOT', ...months]);

    for (const visor of visores) {
      for (const section of visor.secciones) {
        // A chart's series is a symbol as the catalogue names it, or a formula.
        const chartSymbols = section.type === 'chart' ? section.config.series.filter((series) => catalogue.resolve(series) != null) : [];
        if (section.type === 'quotes' || section.type === 'chart') {
          for (const symbol of section.type === 'quotes' ? boardSymbols(section) : chartSymbols) {
            // The search answers the symbol itself first, as the board's search does.
            const hits = expectBody(await demo.api.post('/api/visores/search', { symbol }), SearchResponse).data;
            expect(hits[0]?.symbol, symbol).toBe(symbol);
            const maturity = catalogue.resolve(symbol)?.maturityDate;
            if (maturity) expect(maturity >= today, `${symbol} is not expired`).toBe(true);
          }
        }
        if (section.type === 'formula' || section.type === 'chart') {
          const expressions =
            section.type === 'formula'
              ? section.config.formulas
              : section.config.series.filter((series) => !chartSymbols.includes(series)).map((expression) => ({ name: section.title, expression }));
          for (const { name, expression } of expressions) {
            const answer = await demo.api.post('/api/search_symbols_formula', { formula: expression });
            expectSuccess(answer);
            expect(answer.body, `${name}: ${expression}`).toMatchObject({ data: { parses: true, unknown: [] } });
          }
        }
      }
    }
  });

  it('gives admin none', async () => {
    const admin = await session(server, ADMIN);
    expect(await visoresOf(admin)).toEqual([]);
    expect((await treeOf(admin)).data).toEqual([]);
  });

  it('adds nothing at a second start on the same database', async () => {
    const before = { tree: await treeOf(demo), visores: await visoresOf(demo) };
    // The same settings, so the same database (the harness's startServer makes a new one).
    const again = await buildApp(server.config, { now: server.clock.now });
    try {
      await again.app.listen({ port: 0, host: '127.0.0.1' });
      expect(again.seeded).toEqual([]);
      const { port } = again.app.server.address() as AddressInfo;
      const demoAgain = await session({ baseUrl: `http://127.0.0.1:${port}` });
      expect(await treeOf(demoAgain)).toEqual(before.tree);
      expect(await visoresOf(demoAgain)).toEqual(before.visores);
    } finally {
      await again.app.close();
    }
    const rows = await server.app.ctx.db.selectFrom('visores').select('id').execute();
    expect(rows).toHaveLength(3);
  });
});

describe('demo visores with SEED_DEMO_USERS=false', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ name: 'sqlite' }, { seedDemoUsers: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates no accounts and no visores', async () => {
    expect(server.app.seeded).toEqual([]);
    expect(await server.app.ctx.db.selectFrom('visores').select('id').execute()).toEqual([]);
    expect(await server.app.ctx.db.selectFrom('folder_trees').select('user_id').execute()).toEqual([]);
  });
});
