// The chart section (`Gráfico`, issue 19), as a trader uses it: add a chart of a DLR future
// and see its candles and a live last candle; add a formula series; switch range and
// interval on the header; hover one chart and see the crosshair on the other. And the
// chart is released when it goes: added and removed 50 times, the page's heap, nodes and
// listeners do not grow by anything like 50 charts.
import { expect, test, type APIRequestContext, type CDPSession, type Locator, type Page } from '@playwright/test';
import { ADMIN, DEMO, signIn } from './helpers';
import { startOwnServer } from './ownServer';
import { newUser, type Account } from './shellHelpers';
import { expectSaved, login, renameSection, section } from './visorHelpers';

test.describe.configure({ timeout: 180_000 });

/** An empty visor of the account; answers its id. */
async function emptyVisor(request: APIRequestContext, account: Account, title: string): Promise<string> {
  const { token, user } = await login(request, account);
  const created = await request.post(`/api/visores/${user._id}/new`, {
    data: { title, emoji: '📈', color: '#3b82f6', folder_id: null },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { data: { id_visor: string } }).data.id_visor;
}

/** The nearest dollar future the catalogue lists (`DLR/DIC26`…), found with the board's search. */
async function nearestDollarFuture(request: APIRequestContext, account: Account): Promise<string> {
  const { token } = await login(request, account);
  const answer = await request.get('/api/visores/primary/instruments', { headers: { authorization: `Bearer ${token}` } });
  const { instruments } = (await answer.json()) as { instruments: { instrumentId: { symbol: string }; maturityDate?: string; cficode: string }[] };
  const futures = instruments
    .filter((instrument) => instrument.cficode === 'FXXXSX' && /^DLR\/[A-Z]{3}\d{2}$/.test(instrument.instrumentId.symbol))
    .sort((a, b) => a.maturityDate!.localeCompare(b.maturityDate!));
  expect(futures.length).toBeGreaterThan(0);
  return futures[0]!.instrumentId.symbol;
}

async function addChart(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: 'Gráfico' }).click();
  const chart = section(page, 'Gráfico');
  await expect(chart).toBeVisible();
  return chart;
}

const NUMBER = /^-?\d{1,3}(\.\d{3})*,\d+$/;
const legendValue = (chart: Locator, series: string) => chart.locator(`[data-series="${series}"] [data-field="value"]`);

test('a chart of a DLR future: candles, a live last candle, a formula series, range and interval, and the crosshair shared with another chart', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const account = await newUser(request, 'chart');
  const dollar = await nearestDollarFuture(request, account);
  const visorId = await emptyVisor(request, account, 'Gráficos');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);

  // A new chart opens its settings: the DLR future found with the board's search, AL30 (the default) removed.
  const chart = await addChart(page);
  const settings = chart.getByRole('group', { name: 'Configuración del gráfico' });
  await settings.getByRole('searchbox').fill(dollar);
  await settings.getByRole('searchbox').press('Enter');
  await expect(chart.locator(`[data-series="${dollar}"]`)).toBeVisible();
  await settings.getByRole('button', { name: 'Quitar AL30' }).click();
  await expect(chart.locator('[data-series]')).toHaveCount(1);
  await settings.getByRole('button', { name: 'Cerrar' }).click();
  await renameSection(page, 'Gráfico', 'Dólar');
  const dlr = section(page, 'Dólar');

  // Candles of the daily history (3 months by default), the legend with the last price and its change.
  const root = dlr.locator('.vs-chart');
  await expect(root).toHaveAttribute('data-mode', 'candles');
  await expect(root).toHaveAttribute('data-state', 'current');
  await expect.poll(async () => Number(await root.getAttribute('data-bars'))).toBeGreaterThanOrEqual(60);
  await expect(dlr.locator('canvas').first()).toBeVisible();
  const value = legendValue(dlr, dollar);
  await expect(value).toHaveText(NUMBER);
  await expect(dlr.locator(`[data-series="${dollar}"] [data-field="change"]`)).toHaveText(/^[+-]?\d[\d.]*,\d+ \([+-]?\d+,\d{2}%\)$/);

  // Live: the last candle follows the trades (its close or, a trade at the price before, its
  // volume: the simulated tape can hold a price for minutes but trades DLR/DIC26 at least every
  // 45 s at the replayed hours), and the legend shows its close.
  const seen = (await root.getAttribute('data-last-bar')) ?? '';
  expect(seen).toMatch(/^\d+ [\d.]+ \d+$/);
  await expect(root).not.toHaveAttribute('data-last-bar', seen, { timeout: 60_000 });
  await expect(value).toHaveText(NUMBER);
  const legendShowsClose = async () => {
    const close = Number((await root.getAttribute('data-last-bar'))?.split(' ')[1]);
    const shown = Number((await value.textContent())?.replaceAll('.', '').replace(',', '.'));
    return Math.abs(close - shown) < 0.05;
  };
  await expect.poll(legendShowsClose).toBe(true);

  // Range and interval on the header: one day of 5-minute candles.
  await dlr.getByRole('group', { name: 'Rango' }).getByRole('button', { name: '1D', exact: true }).click();
  await dlr.getByRole('group', { name: 'Intervalo' }).getByRole('button', { name: '5 min', exact: true }).click();
  await expect(root).toHaveAttribute('data-range', '1d');
  await expect(root).toHaveAttribute('data-interval', '5m');
  await expect(dlr.getByRole('group', { name: 'Intervalo' }).getByRole('button', { name: '5 min', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(root).toHaveAttribute('data-state', 'current');
  // A day of minutes since 00:00 in Buenos Aires: at most 288 five-minute candles, at least one.
  await expect.poll(async () => Number(await root.getAttribute('data-bars'))).toBeGreaterThan(0);
  expect(Number(await root.getAttribute('data-bars'))).toBeLessThanOrEqual(289);
  await expect(value).toHaveText(NUMBER);
  await expectSaved(page);

  // A second chart with a formula series: lines, the formula's value in the legend.
  const other = await addChart(page);
  const otherSettings = other.getByRole('group', { name: 'Configuración del gráfico' });
  await otherSettings.getByLabel('Fórmula').fill('BYMA:AL30/BYMA:AL30D');
  await otherSettings.getByRole('button', { name: 'Agregar fórmula' }).click();
  await otherSettings.getByRole('button', { name: 'Cerrar' }).click();
  await expect(other.locator('.vs-chart')).toHaveAttribute('data-mode', 'lines');
  await expect(legendValue(other, 'BYMA:AL30/BYMA:AL30D')).toHaveText(NUMBER);
  await expect(legendValue(other, 'BYMA:AL30')).toHaveText(NUMBER);
  await expect(other.locator('.vs-chart')).toHaveAttribute('data-state', 'current');

  // Hover the dollar chart: the other chart's crosshair goes to the same time (the day of it),
  // its legend says that day; the pointer leaves and both let go.
  const canvas = dlr.locator('.vs-chart__canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.4);
  await expect(root).toHaveAttribute('data-crosshair-time', /^\d+$/);
  const hovered = Number(await root.getAttribute('data-crosshair-time'));
  const otherRoot = other.locator('.vs-chart');
  await expect(otherRoot).toHaveAttribute('data-crosshair-time', /^\d+$/);
  const synced = Number(await otherRoot.getAttribute('data-crosshair-time'));
  // Daily against 5 minutes: the other chart shows the day of the hovered minute (or, on a
  // weekend, the last weekday before it).
  expect(synced % 86_400).toBe(0);
  expect(synced).toBeLessThanOrEqual(hovered);
  expect(hovered - synced).toBeLessThan(4 * 86_400);
  const day = new Date(synced * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  await expect(other.locator('[data-field="crosshair-time"]')).toHaveText(`${two(day.getUTCDate())}/${two(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`);
  await page.mouse.move(box.x + box.width * 0.5, box.y - 200);
  await expect(otherRoot).not.toHaveAttribute('data-crosshair-time', /.*/);

  // The canvas follows its grid cell: another window width, another cell width, the chart
  // as wide as its cell.
  const widths = () =>
    dlr.locator('.vs-chart__canvas').evaluate((cell) => ({
      cell: cell.getBoundingClientRect().width,
      chart: cell.querySelector('.tv-lightweight-charts')?.getBoundingClientRect().width ?? -1,
    }));
  const before = await widths();
  expect(Math.abs(before.chart - before.cell)).toBeLessThan(2);
  await page.setViewportSize({ width: 1000, height: 1000 });
  await expect.poll(async () => Math.abs((await widths()).cell - before.cell)).toBeGreaterThan(50);
  await expect.poll(async () => Math.abs((await widths()).chart - (await widths()).cell)).toBeLessThan(2);

  // As left after a reload (drawn from the cache first, then current).
  await expectSaved(page);
  await page.reload();
  await expect(section(page, 'Dólar').locator('.vs-chart')).toHaveAttribute('data-interval', '5m');
  await expect(legendValue(section(page, 'Dólar'), dollar)).toHaveText(NUMBER);
});

test('a visitor of the public visor sees the chart read-only; seen before, it draws from the cache with the server gone, marked stale', async ({
  browser,
  playwright,
}) => {
  // A server of this test's own: it is killed to take the network away from the data worker
  // (a SharedWorker's requests do not follow the page's offline emulation).
  const server = await startOwnServer();
  try {
    const api = await playwright.request.newContext({ baseURL: server.url });
    const { token, user } = await login(api, DEMO);
    const headers = { authorization: `Bearer ${token}` };
    const created = await api.post(`/api/visores/${user._id}/new`, { data: { title: 'Bonos', emoji: '📈', color: '#3b82f6', folder_id: null }, headers });
    expect(created.ok(), await created.text()).toBe(true);
    const visorId = ((await created.json()) as { data: { id_visor: string } }).data.id_visor;
    const chartSection = {
      id: 'c1',
      type: 'chart',
      title: 'AL30',
      layout: { x: 0, y: 0, w: 6, h: 8 },
      config: { series: ['BYMA:AL30'], interval: '1d', range: '1M' },
    };
    const saved = await api.put(`/api/visores/${visorId}/update_secciones`, { data: { secciones: [chartSection] }, headers });
    expect(saved.ok(), await saved.text()).toBe(true);
    const shared = await api.put(`/api/visores/${visorId}/check_option`, { data: { option: 'public', value: true }, headers });
    expect(shared.ok(), await shared.text()).toBe(true);
    await api.dispose();

    const signInAt = async (page: Page, account: { username: string; password: string }) => {
      await signIn(page, account, `${server.url}/auth/signin`);
      await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
    };

    // Public mode: the chart, its legend and period, no switches and no settings.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await signInAt(visitor, ADMIN);
    await visitor.goto(`${server.url}/visor/${visorId}/public`);
    const seen = section(visitor, 'AL30');
    await expect(seen.locator('.vs-chart')).toHaveAttribute('data-state', 'current');
    await expect(legendValue(seen, 'BYMA:AL30')).toHaveText(NUMBER);
    await expect(seen.getByText('1M · Diario')).toBeVisible();
    await expect(seen.getByRole('group', { name: 'Rango' })).toHaveCount(0);
    await expect(seen.getByRole('button', { name: 'Configurar sección' })).toHaveCount(0);
    await visitorContext.close();

    // The owner sees it once, leaves for Inicio; the server goes; the chart is opened again.
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    await signInAt(page, DEMO);
    await page.goto(`${server.url}/visor/${visorId}/edit`);
    const root = section(page, 'AL30').locator('.vs-chart');
    await expect(root).toHaveAttribute('data-state', 'current');
    await expect(root).toHaveAttribute('data-bars', /^2[2-3]$/);
    await page.getByRole('link', { name: 'Inicio' }).first().click();
    await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();

    await server.kill();
    await page.getByRole('link', { name: /Bonos/ }).first().click();
    await expect(root).toHaveAttribute('data-state', 'offline');
    await expect(
      section(page, 'AL30')
        .getByRole('status')
        .filter({ hasText: /^Sin conexión: datos guardados del \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/ }),
    ).toBeVisible();
    await expect(root).toHaveAttribute('data-bars', /^2[2-3]$/);
    await expect(legendValue(section(page, 'AL30'), 'BYMA:AL30')).toHaveText(NUMBER);
    await context.close();
  } finally {
    await server.stop();
  }
});

interface Counters {
  heap: number;
  nodes: number;
  listeners: number;
  documents: number;
}

async function counters(cdp: CDPSession): Promise<Counters> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  const dom = await cdp.send('Memory.getDOMCounters');
  return { heap: heap.usedSize, nodes: dom.nodes, listeners: dom.jsEventListeners, documents: dom.documents };
}

test('a chart added and removed 50 times leaves no canvases, nodes or listeners behind', async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 1000 });
  const account = await newUser(request, 'leak');
  const visorId = await emptyVisor(request, account, 'Fugas');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await expect(page.getByRole('heading', { name: 'Fugas', level: 1 })).toBeVisible();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');

  /** Adds a chart, waits for it to draw its history and the live price, removes it. */
  const cycle = async (keep = false) => {
    const chart = await addChart(page);
    await expect(chart.locator('.vs-chart')).toHaveAttribute('data-state', 'current');
    await expect(legendValue(chart, 'BYMA:AL30')).toHaveText(NUMBER);
    await expect(chart.locator('canvas').first()).toBeVisible();
    if (keep) return;
    await chart.getByRole('button', { name: 'Eliminar sección' }).click();
    await page.getByRole('alertdialog', { name: '¿Estas seguro?' }).getByRole('button', { name: 'Si, borrar' }).click();
    await expect(section(page, 'Gráfico')).toHaveCount(0);
  };

  // Warm up (code, caches, the first toast), then what one chart costs while it is on screen.
  for (let i = 0; i < 3; i++) await cycle();
  await expectSaved(page);
  const before = await counters(cdp);
  await cycle(true);
  const withOne = await counters(cdp);
  const oneChart = {
    nodes: Math.max(withOne.nodes - before.nodes, 1),
    listeners: Math.max(withOne.listeners - before.listeners, 1),
    heap: Math.max(withOne.heap - before.heap, 0),
  };
  expect(await page.locator('.vs-chart canvas').count()).toBeGreaterThan(0);
  await section(page, 'Gráfico').getByRole('button', { name: 'Eliminar sección' }).click();
  await page.getByRole('alertdialog', { name: '¿Estas seguro?' }).getByRole('button', { name: 'Si, borrar' }).click();
  await expect(section(page, 'Gráfico')).toHaveCount(0);

  for (let i = 0; i < 50; i++) await cycle();
  await expectSaved(page);
  await expect(page.locator('canvas')).toHaveCount(0);
  const after = await counters(cdp);
  const report = JSON.stringify({ before, withOne, after, oneChart });
  console.log(`chart leak check: ${report}`);

  // 50 leaked charts would add 50 times what one costs; allow a few charts' worth of noise.
  expect(after.documents, report).toBeLessThanOrEqual(before.documents);
  expect(after.nodes - before.nodes, report).toBeLessThan(5 * oneChart.nodes);
  expect(after.listeners - before.listeners, report).toBeLessThan(5 * oneChart.listeners);
  expect(after.heap - before.heap, report).toBeLessThan(10 * oneChart.heap + 4 * 1024 * 1024);
});
