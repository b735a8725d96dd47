// A visor opened once is read with the network off after a reload (issue 21), for real: the
// service worker is allowed, the browser loads the app through the TCP proxy of netProxy.ts in
// front of a server of this spec's own, and the proxy cuts the network. After the reload the
// page comes from the service worker, the app starts with the last signed-in user, the demo's
// Dólar visor shows its title and sections, the board's last quotes marked stale with their
// time and in each instrument's decimals, the curve's months (both from the catalogue the data
// worker kept), the chart's cached history with its stale label, and the banner; controls that need
// the server say why they are off. A visor never opened here says it is not available offline.
// When the network returns everything is live again without a reload.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';
import type { NetProxy } from '../fakes/netProxy';
import type { OwnServer } from './ownServer';
import { startProxiedServer, type ProxiedServer } from './proxiedServer';
import { section } from './visorHelpers';
import { expandFolder, row, workspaceTree } from './workspaceHelpers';

let network: ProxiedServer<OwnServer>;
let server: OwnServer;
let proxy: NetProxy;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  network = await startProxiedServer({ SIM_TICKS_PER_SECOND: '2000' });
  ({ server, proxy } = network);
});

test.afterAll(async () => {
  await network?.stop();
});

const VISOR = 'Dólar: futuros y MEP';
const SECTIONS = ['Futuros de dólar y A3500', 'Dólares implícitos', 'Curva DLR: tasas implícitas', 'Posiciones (cuenta simulada)'];
const banner = (page: Page) => page.getByRole('status').filter({ hasText: /^Sin conexión desde \d\d:\d\d/ });
const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller != null);
const boardRows = (page: Page) => section(page, SECTIONS[0]!).locator('[role="row"][data-symbol]');
/** The chart section: the one whose title starts with "Futuro " (the nearest DLR month). */
const chartSection = (page: Page): Locator => page.getByRole('article', { name: /^Futuro DLR\// });

/** A visor of demo's made through the server directly (never through the proxy); answers its id. */
async function createVisorOnServer(title: string): Promise<string> {
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    expect(response.ok, await response.clone().text()).toBe(true);
    return (await response.json()) as Record<string, unknown>;
  };
  const login = (await post('/api/login', DEMO)) as { token: string; user: { _id: string } };
  const created = (await post(`/api/visores/${login.user._id}/new`, { title, emoji: '', color: '#22c55e', folder_id: null }, login.token)) as {
    data: { id_visor: string };
  };
  return created.data.id_visor;
}

/** Every row of the board live, and one of its prices moving while we watch. */
async function expectBoardLive(page: Page): Promise<void> {
  const rows = boardRows(page);
  await expect(rows.first()).toBeVisible();
  await expect(rows.and(page.locator('[data-stale="true"]'))).toHaveCount(0, { timeout: 30_000 });
  // Its cells as a whole: the book moves between trades, the session's volume only in its hours.
  const cells = async () => (await rows.nth(1).getByRole('cell').allTextContents()).join(' ');
  const before = await cells();
  await expect.poll(cells, { timeout: 20_000 }).not.toBe(before);
}

test('a visor opened once is read offline after a reload from the service worker, and comes back live without a reload', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: proxy.url, serviceWorkers: 'allow', viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await signIn(page, DEMO);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await expandFolder(workspaceTree(page), 'Dólar');
  await row(workspaceTree(page), VISOR).getByRole('link').click();
  await expect(page).toHaveURL(/\/visor\/[^/]+\/edit$/);
  const visorUrl = page.url();

  // The service worker installed from the first load controls the page after a reload.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  expect(await controlled(page)).toBe(true);
  await expect(page.getByRole('heading', { name: VISOR, level: 1 })).toBeVisible();
  for (const title of SECTIONS) await expect(section(page, title)).toBeVisible();
  await expectBoardLive(page);
  const chart = chartSection(page).locator('.vs-chart');
  await expect(chart).toHaveAttribute('data-state', 'current', { timeout: 30_000 });
  await expect.poll(async () => Number(await chart.getAttribute('data-bars'))).toBeGreaterThan(20);
  const bars = Number(await chart.getAttribute('data-bars'));

  // The network gone, the page reloaded: it comes from the service worker and starts with the last user.
  proxy.down();
  await page.reload();
  expect(await controlled(page)).toBe(true);
  await expect(page).toHaveURL(visorUrl);
  await expect(banner(page)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('heading', { name: VISOR, level: 1 })).toBeVisible();
  for (const title of SECTIONS) await expect(section(page, title)).toBeVisible();
  // The board's last quotes, marked stale with their time.
  const rows = boardRows(page);
  await expect(rows.first()).toBeVisible();
  await expect(rows.and(page.locator('[data-stale="false"]'))).toHaveCount(0);
  const spot = rows.first();
  await expect(spot.locator('.vs-row__note')).toHaveText(/^último \d\d:\d\d(:\d\d)?$/);
  // Each row's time is whole, under its symbol (beside it, the note was cut to «últ…» in this board).
  const cut = await rows.evaluateAll((list) =>
    list.flatMap((row) => {
      const note = row.querySelector<HTMLElement>('.vs-row__note')!;
      return note.scrollWidth > note.clientWidth ? [`${row.getAttribute('data-symbol')}: ${note.textContent}`] : [];
    }),
  );
  expect(cut).toEqual([]);
  await expect(spot.getByRole('cell').nth(2)).toHaveText(/\d,\d/);
  // The chart's cached history, with its stale label.
  await expect(chart).toHaveAttribute('data-state', 'offline', { timeout: 15_000 });
  await expect(chart.getByRole('status')).toHaveText(/^Sin conexión: datos guardados del \d\d\/\d\d\/\d{4} \d\d:\d\d/);
  expect(Number(await chart.getAttribute('data-bars'))).toBe(bars);
  // The catalogue the data worker kept: the board's DLR future in its own decimals (one, its
  // tick is 0,5), not the 4 of a board without a catalogue, and the curve draws its months.
  const future = rows.nth(1);
  await expect(future).toHaveAttribute('data-symbol', /DLR\//);
  await expect(future.locator('[data-field="last"]')).toHaveText(/^\d{1,3}(\.\d{3})*,\d$/);
  const curve = section(page, SECTIONS[2]!);
  const curveRows = curve.locator('tr[data-symbol]');
  await expect(curveRows.first()).toBeVisible();
  expect(await curveRows.count()).toBeGreaterThan(1);
  // With the last quotes kept: a price, a TNA.
  await expect(curveRows.first().locator('[data-field="price"]')).toHaveText(/\d/);
  await expect(curveRows.first().locator('[data-field="tna"]')).toHaveText(/\d/);
  await expect(curve.getByText(/No se pudo leer el catálogo/)).toHaveCount(0);
  // Sections that need the server say so: the positions wait for the connection (Reintentar
  // off, saying why).
  const reason = 'Sin conexión: esta acción necesita el servidor';
  const positions = section(page, SECTIONS[3]!);
  await expect(positions.getByRole('alert')).toHaveText('Sin conexión: las posiciones se verán al volver la conexión.');
  await expect(positions.getByRole('button', { name: 'Reintentar' })).toBeDisabled();
  await expect(positions.getByRole('button', { name: 'Reintentar' })).toHaveAttribute('title', reason);
  // Controls that need the server say why they are off.
  await expect(page.getByRole('button', { name: 'Buscar' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Buscar' })).toHaveAttribute('title', reason);

  // Another visor of the tree, never opened here: the workspace's list kept it, so it shows,
  // with its own sections (not those of the visor on screen before it).
  const tree = workspaceTree(page);
  await expandFolder(tree, 'Bonos');
  await row(tree, 'Bonos AL30 y GD30').getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Bonos AL30 y GD30', level: 1 })).toBeVisible();
  await expect(section(page, 'AL30 y GD30: pesos, MEP y cable')).toBeVisible();
  await expect(section(page, SECTIONS[0]!)).toHaveCount(0);
  // A visor made on another device after the network went, never seen here: it says it is not
  // available offline, rather than spinning.
  const elsewhere = await createVisorOnServer('Hecho en otro equipo');
  await page.goto(`/visor/${elsewhere}/edit`);
  await expect(page.getByRole('alert')).toContainText('Este visor no está disponible sin conexión');
  await page.goto(visorUrl);
  await expect(page.getByRole('heading', { name: VISOR, level: 1 })).toBeVisible();
  await expect(chart).toHaveAttribute('data-state', 'offline');

  // The network returns: no reload, and everything is live again.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  proxy.up();
  await expect(banner(page)).toBeHidden({ timeout: 30_000 });
  await expectBoardLive(page);
  await expect(chart).toHaveAttribute('data-state', 'current', { timeout: 30_000 });
  await expect(chart.getByRole('status')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Buscar' })).toBeEnabled();
  await expect(positions.getByRole('alert')).toHaveCount(0, { timeout: 30_000 });
  await expect(positions.getByRole('region', { name: /^Posiciones de / })).toBeVisible({ timeout: 30_000 });
  await expect(curve.getByText(/No se pudo leer el catálogo/)).toHaveCount(0, { timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await context.close();
});
