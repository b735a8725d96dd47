// Live prices through the data worker (issue 5): the tabs of one browser share ONE market
// socket (one SharedWorker), a symbol stays subscribed while any tab shows it, and every tab
// resumes live prices by itself after the server dies and comes back, and within 5 s of a
// graceful restart's new process being ready. A symbol shown again
// while the server is down shows its cached price, marked stale, until live data arrives.
// Without SharedWorker each tab runs the same data worker as a dedicated Worker.
// A ticker typed alone on the board is added as its best match; unknown text says so.
// A row scrolled out of view keeps following its symbol (less often) and is live again in view.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN, DEMO, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';

interface SocketRow {
  user: { id: string; username: string };
  symbols: string[];
}

const DOLLAR = 'DLR/DIC26';
const SHARE = 'MERV - XMEV - GGAL - 24hs';

let server: OwnServer;
let adminToken: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // Many ticks a second, so every symbol moves within moments.
  server = await startOwnServer({ SIM_TICKS_PER_SECOND: '3000' });
  const response = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  adminToken = ((await response.json()) as { token: string }).token;
});

test.afterAll(async () => {
  await server?.stop();
});

/** The market sockets the server has open for the demo user. */
async function demoSockets(): Promise<SocketRow[]> {
  const response = await fetch(`${server.url}/api/admin/market/sockets`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: SocketRow[] };
  return data.filter((row) => row.user.username === DEMO.username);
}

async function signedInContext(browser: Browser, options: { withoutSharedWorker?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url });
  if (options.withoutSharedWorker) {
    // As in browsers without SharedWorker (older Chrome for Android, some WebViews).
    await context.addInitScript(() => {
      delete (window as { SharedWorker?: unknown }).SharedWorker;
    });
  }
  const page = await context.newPage();
  await signIn(page, DEMO);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.close();
  return context;
}

async function openBoard(context: BrowserContext, symbols: string[]): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`/test?simbolos=${encodeURIComponent(symbols.join(','))}`);
  await expect(page.getByRole('heading', { name: 'Test', level: 1 })).toBeVisible();
  return page;
}

const row = (page: Page, symbol: string) => page.getByRole('row').and(page.locator(`[data-symbol="${symbol}"]`));

/**
 * The row shows a live price (not the cached one) and it moves while we watch: its book (bid and
 * offer) and last trade. Not its volume: that is the session's, which holds outside its hours.
 */
async function expectLivePrices(page: Page, symbol: string): Promise<void> {
  const cells = row(page, symbol).getByRole('cell');
  await expect(row(page, symbol)).toHaveAttribute('data-stale', 'false');
  await expect(row(page, symbol).getByRole('rowheader')).toHaveText(symbol);
  await expect(cells.nth(2)).toHaveText(/^\d[\d.]*,\d\d$/);
  const prices = async () => (await Promise.all([0, 1, 2].map((index) => cells.nth(index).textContent()))).join(' ');
  const first = await prices();
  await expect.poll(prices, { timeout: 20_000 }).not.toBe(first);
}

test('three tabs show live prices over one market socket; a symbol stays subscribed while a tab shows it', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await signedInContext(browser);
  const first = await openBoard(context, [DOLLAR, SHARE]);
  const second = await openBoard(context, [DOLLAR]);
  const third = await openBoard(context, [DOLLAR]);
  for (const page of [first, second, third]) await expectLivePrices(page, DOLLAR);
  await expectLivePrices(first, SHARE);

  await expect.poll(demoSockets).toEqual([
    {
      process: expect.any(String),
      user: expect.objectContaining({ username: DEMO.username }),
      openedAt: expect.any(Number),
      symbols: [DOLLAR, SHARE].sort(),
    },
  ]);

  // The first tab alone wanted the share; the third still wants the dollar.
  await first.close();
  await second.close();
  await expect.poll(async () => (await demoSockets()).map((socket) => socket.symbols)).toEqual([[DOLLAR]]);
  await expectLivePrices(third, DOLLAR);

  await third.close();
  // The last tab gone: nothing is subscribed (the worker may also have ended with its socket).
  await expect.poll(async () => (await demoSockets()).flatMap((socket) => socket.symbols)).toEqual([]);
  await context.close();
});

test('a row scrolled out of view still follows its symbol, and follows it live again back in view', async ({ browser }) => {
  test.setTimeout(90_000);
  const login = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) });
  const { token } = (await login.json()) as { token: string };
  const listed = await fetch(`${server.url}/api/visores/primary/instruments`, { headers: { authorization: `Bearer ${token}` } });
  const { instruments } = (await listed.json()) as { instruments: { instrumentId: { symbol: string } }[] };
  // The first and last rows, whose prices are watched, are symbols that move at every tick's
  // size (not the A3500 reference's fourth decimal, nor a far option's 0,10): the 38 between
  // them only fill the board past the view.
  const between = instruments.map((instrument) => instrument.instrumentId.symbol).filter((symbol) => symbol !== DOLLAR && symbol !== SHARE);
  const symbols = [DOLLAR, ...between.slice(0, 38), SHARE];
  const last = symbols.at(-1)!;
  const context = await signedInContext(browser);
  const page = await openBoard(context, symbols);
  await expect(row(page, last)).toHaveAttribute('data-stale', 'false');
  // Forty rows do not fit: the last is out of view, and its prices still move.
  await expect(row(page, last)).not.toBeInViewport();
  await expectLivePrices(page, last);
  await row(page, last).scrollIntoViewIfNeeded();
  await expect(row(page, last)).toBeInViewport();
  await expectLivePrices(page, last);
  await expect(row(page, symbols[0]!)).not.toBeInViewport();
  await expectLivePrices(page, symbols[0]!);
  await context.close();
});

test('after the server is killed and restarted every tab resumes live prices without a reload', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await signedInContext(browser);
  const pages = [await openBoard(context, [DOLLAR]), await openBoard(context, [DOLLAR, SHARE]), await openBoard(context, [SHARE])];
  for (const page of pages) {
    await expectLivePrices(page, page === pages[2] ? SHARE : DOLLAR);
    await page.evaluate(() => ((window as unknown as { notReloaded?: boolean }).notReloaded = true));
  }
  await expect.poll(async () => (await demoSockets()).length).toBe(1);

  await server.kill();
  for (const page of pages) {
    await expect(page.getByRole('status', { name: 'Conexión de mercado' })).toHaveText(/Sin conexión|Conectando/);
    await expect(page.getByRole('table', { name: 'Cotizaciones' })).toHaveAttribute('data-live', 'false');
  }

  await server.restart();
  for (const page of pages) {
    await expect(page.getByRole('table', { name: 'Cotizaciones' })).toHaveAttribute('data-live', 'true', { timeout: 30_000 });
    for (const symbol of page === pages[0] ? [DOLLAR] : page === pages[1] ? [DOLLAR, SHARE] : [SHARE]) await expectLivePrices(page, symbol);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  }
  // Still one socket, subscribed again to exactly what the tabs show.
  await expect.poll(async () => (await demoSockets()).map((socket) => socket.symbols)).toEqual([[DOLLAR, SHARE].sort()]);
  await context.close();
});

test('after a graceful restart (SIGTERM) every tab is live again within 5 s of the new server being ready, without a reload', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await signedInContext(browser);
  const shown = [[DOLLAR], [DOLLAR, SHARE], [SHARE]];
  const pages: Page[] = [];
  for (const symbols of shown) pages.push(await openBoard(context, symbols));
  for (const [index, page] of pages.entries()) {
    for (const symbol of shown[index]!) await expectLivePrices(page, symbol);
    await page.evaluate(() => ((window as unknown as { notReloaded?: boolean }).notReloaded = true));
  }
  await expect.poll(async () => (await demoSockets()).length).toBe(1);

  // SIGTERM: the server closes the socket with 1012 (service restart) and exits.
  await server.stop();
  for (const page of pages) await expect(page.getByRole('table', { name: 'Cotizaciones' })).toHaveAttribute('data-live', 'false');

  await server.restart();
  // The worker retries every quarter to 1.25 s after a 1012 while the new process is not up.
  await Promise.all(pages.map((page) => expect(page.getByRole('table', { name: 'Cotizaciones' })).toHaveAttribute('data-live', 'true', { timeout: 5_000 })));
  for (const [index, page] of pages.entries()) {
    for (const symbol of shown[index]!) await expectLivePrices(page, symbol);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  }
  await expect.poll(async () => (await demoSockets()).map((socket) => socket.symbols)).toEqual([[DOLLAR, SHARE].sort()]);
  await context.close();
});

/** The last quote of a symbol in the browser's local database, as the data worker cached it. */
function cachedQuote(page: Page, symbol: string): Promise<unknown> {
  return page.evaluate(
    (key) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('visores');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const database = open.result;
          const done = (value: unknown) => {
            database.close();
            resolve(value);
          };
          if (!database.objectStoreNames.contains('quotes')) return done(null);
          const read = database.transaction('quotes').objectStore('quotes').get(key);
          read.onsuccess = () => done(read.result ?? null);
          read.onerror = () => done(null);
        };
      }),
    symbol,
  );
}

test('a symbol shown again while the server is down shows its cached price marked stale, then live prices once it is back', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await signedInContext(browser);
  const first = await openBoard(context, [SHARE]);
  const second = await openBoard(context, [DOLLAR]);
  await expectLivePrices(first, SHARE);
  await expect.poll(() => cachedQuote(second, SHARE), { timeout: 15_000 }).toMatchObject({ symbol: SHARE });
  await first.close();
  // Nobody shows the share now: the worker let it go and keeps nothing of it in memory.
  await expect.poll(async () => (await demoSockets()).map((socket) => socket.symbols)).toEqual([[DOLLAR]]);

  await server.kill();
  await expect(second.getByRole('table', { name: 'Cotizaciones' })).toHaveAttribute('data-live', 'false');
  await second.getByLabel('Agregar símbolo').fill(SHARE);
  await second.getByLabel('Agregar símbolo').press('Enter');
  const cached = row(second, SHARE);
  await expect(cached.getByRole('rowheader')).toHaveText(SHARE);
  await expect(cached.getByRole('cell').nth(2)).toHaveText(/^\d[\d.]*,\d\d$/);
  await expect(cached).toHaveAttribute('data-stale', 'true');

  await server.restart();
  await expectLivePrices(second, SHARE);
  await expectLivePrices(second, DOLLAR);
  await context.close();
});

test('without SharedWorker each tab runs the data worker as a dedicated Worker: live prices, a socket per tab, gone with its tab', async ({ browser }) => {
  test.setTimeout(90_000);
  await expect.poll(async () => (await demoSockets()).length).toBe(0);
  const context = await signedInContext(browser, { withoutSharedWorker: true });
  const first = await openBoard(context, [DOLLAR]);
  const second = await openBoard(context, [SHARE]);
  expect(await first.evaluate(() => typeof (window as { SharedWorker?: unknown }).SharedWorker)).toBe('undefined');
  await expectLivePrices(first, DOLLAR);
  await expectLivePrices(second, SHARE);
  await expect.poll(async () => (await demoSockets()).map((socket) => socket.symbols).sort()).toEqual([[DOLLAR], [SHARE]]);

  await second.close();
  await expect.poll(async () => (await demoSockets()).map((socket) => socket.symbols)).toEqual([[DOLLAR]]);
  await expectLivePrices(first, DOLLAR);
  await context.close();
});

test('a ticker typed alone is added as its best match; text that matches nothing says so and adds nothing', async ({ browser }) => {
  test.setTimeout(60_000);
  const context = await signedInContext(browser);
  const page = await context.newPage();
  await page.goto('/test');
  const input = page.getByLabel('Agregar símbolo');
  await input.fill('ggal');
  await page.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expectLivePrices(page, SHARE);
  await expect(input).toHaveValue('');

  // The answer stays after the live search of the same text lands (it used to clear it).
  let searches = 0;
  page.on('response', (response) => {
    if (response.url().endsWith('/api/visores/search')) searches += 1;
  });
  await input.fill('XYZ123');
  await input.press('Enter');
  await expect.poll(() => searches).toBeGreaterThanOrEqual(2);
  await expect(page.getByText('No se encontró el símbolo «XYZ123»')).toBeVisible();
  await expect(page.locator('[role="row"][data-symbol]')).toHaveCount(1);
  await expect(input).toHaveValue('XYZ123');
  await context.close();
});
