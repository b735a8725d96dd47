// The search page as a trader's (issue "Numbers a trader can trust"): search «DLR» from the header,
// read the results in Spanish with dates, open a symbol's detail (kind, expiry, contract size,
// tick, live price, a chart of its daily closes), add it to a quote board of one of demo's
// visores and find the row there; a symbol already on a board is said, not added twice; a visor
// without a board is offered one, offline too (kept, and sent when the network returns). Its own
// server behind the TCP proxy of netProxy.ts, which cuts the network for real; the server is read
// directly to check what it has.
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';
import type { NetProxy } from '../fakes/netProxy';
import type { OwnServer } from './ownServer';
import { serverRequest, startProxiedServer, type ProxiedServer } from './proxiedServer';
import { section } from './visorHelpers';

let network: ProxiedServer<OwnServer>;
let server: OwnServer;
let proxy: NetProxy;
let token: string;
let userId: string;
/** The future test 1 added to the Bonos visor's board. */
let added: string;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  network = await startProxiedServer({ SIM_TICKS_PER_SECOND: '2000' });
  ({ server, proxy } = network);
  const login = await api('POST', '/api/login', DEMO, null);
  token = login.token as string;
  userId = (login.user as { _id: string })._id;
});

test.afterAll(async () => {
  await network?.stop();
});

/** The server's API, directly (never through the proxy). */
const api = (method: string, path: string, body?: unknown, as: string | null = token) => serverRequest(server.url, method, path, body, as);

interface VisorRead {
  visor_id: string;
  title: string;
  version: number;
  secciones: { id: string; type: string; title: string; config: { rows?: { kind: string; symbol?: string }[] } }[];
}

/** The user's visores as listed: without sections (…/get reads one whole). */
const visores = async () => (await api('GET', `/api/visores/${userId}`)).data as Omit<VisorRead, 'secciones'>[];
const visorNamed = async (title: string) => {
  const listed = (await visores()).find((visor) => visor.title === title)!;
  return (await api('GET', `/api/visores/${listed.visor_id}/get`)).data as VisorRead;
};
/** Every symbol row of every quote board of the visor, in order. */
const boardSymbols = (visor: VisorRead) =>
  visor.secciones.flatMap((item) => (item.type === 'quotes' ? (item.config.rows ?? []).flatMap((row) => (row.symbol ? [row.symbol] : [])) : []));

async function signedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, DEMO);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  return page;
}

async function searchFromHeader(page: Page, text: string): Promise<void> {
  await page.getByRole('button', { name: 'Buscar' }).click();
  const input = page.getByRole('searchbox', { name: 'Buscar' });
  await input.fill(text);
  await input.press('Enter');
  await expect(page.getByRole('heading', { name: 'Búsqueda', level: 1 })).toBeVisible();
}

/** The open detail of a symbol (its region is named by its heading). */
const detailOf = (page: Page, symbol: string) => page.getByRole('region', { name: symbol, exact: true });
const field = (detail: Locator, name: string) => detail.locator(`[data-field="${name}"]`);
const detailPath = (text: string, symbol: string) => `/backend/pages/generic/search?${encodeURIComponent(text)}&symbol=${encodeURIComponent(symbol)}`;
const offlineBanner = (page: Page) => page.getByRole('status').filter({ hasText: /^Sin conexión desde \d\d:\d\d/ });

test('search «DLR» from the header, open a future’s detail, add it to a board of the Bonos visor and find the row there', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: proxy.url, viewport: { width: 1400, height: 1000 } });
  const page = await signedIn(context);
  await searchFromHeader(page, 'DLR');
  await expect(page).toHaveURL(/\/backend\/pages\/generic\/search\?DLR$/);

  // The results speak Spanish and write dates as dates.
  const futures = page.getByRole('link', { name: /^Ver el detalle de DLR\/[A-Z]{3}\d\d$/ });
  await expect(futures.first()).toBeVisible();
  const farthest = futures.last();
  added = (await farthest.textContent())!;
  const item = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: `Ver el detalle de ${added}`, exact: true }) });
  await expect(item).toContainText(/Futuro · ARS · vence \d\d\/\d\d\/20\d\d$/);
  await expect(page.getByRole('listitem').filter({ hasText: /^DLR\/SPOT/ })).toContainText('Spot de referencia · ARS');
  await expect(page.getByText(/\b(future|option|spread|spot|stock|bond|index|other) · /)).toHaveCount(0);
  await expect(page.getByText(/vence \d{8}/)).toHaveCount(0);

  // The detail: on the URL, what the instrument is, its live price, its recent closes.
  await farthest.click();
  await expect(page).toHaveURL(new RegExp(`\\?DLR&symbol=${encodeURIComponent(added)}$`));
  const detail = detailOf(page, added);
  await expect(detail).toBeVisible();
  await expect(field(detail, 'kind')).toHaveText('Futuro');
  await expect(field(detail, 'expiration')).toHaveText(/^\d\d\/\d\d\/20\d\d · faltan \d+ días$/);
  await expect(field(detail, 'contract_size')).toHaveText('1.000');
  await expect(field(detail, 'tick')).toHaveText('0,5');
  await expect(field(detail, 'currency')).toHaveText('ARS');
  await expect(field(detail, 'note')).toHaveText('En vivo');
  const last = field(detail, 'last');
  await expect(last).toHaveText(/^\d{1,3}(\.\d{3})*,\d$/);
  await expect(field(detail, 'close')).toHaveText(/^\d{1,3}(\.\d{3})*,\d$/);
  await expect(field(detail, 'change_pct')).toHaveText(/^[+-]?\d+,\d\d%$/);
  // Live: its book moves (a far month trades now and then; its bid and offer move with the market).
  const prices = async () => (await Promise.all(['bid', 'ask', 'last'].map((name) => field(detail, name).textContent()))).join(' ');
  const seen = await prices();
  await expect.poll(prices, { timeout: 20_000 }).not.toBe(seen);
  const chart = detail.getByRole('img', { name: /^Cierres diarios de 30 ruedas: de [\d.]+,\d el \d\d\/\d\d\/20\d\d a [\d.]+,\d el \d\d\/\d\d\/20\d\d$/ });
  await expect(chart.locator('canvas').first()).toBeVisible();

  // Added to the board of the Bonos visor: said, on the server once, and on the visor's screen.
  await detail.getByLabel('Visor', { exact: true }).selectOption({ label: 'Bonos AL30 y GD30' });
  await expect(detail.getByLabel('Tabla', { exact: true })).toHaveValue('bonos-lineas');
  await detail.getByRole('button', { name: 'Agregar a «AL30 y GD30: pesos, MEP y cable»' }).click();
  await expect(detail.getByRole('status')).toHaveText(`Agregado: ${added} está en «AL30 y GD30: pesos, MEP y cable» de «Bonos AL30 y GD30». Abrir el visor`);
  await expect(detail.getByRole('button', { name: /^Agregar a/ })).toHaveCount(0);
  const bonos = await visorNamed('Bonos AL30 y GD30');
  expect(boardSymbols(bonos).filter((symbol) => symbol === added)).toHaveLength(1);

  await detail.getByRole('link', { name: 'Abrir el visor' }).click();
  await expect(page).toHaveURL(new RegExp(`/visor/${bonos.visor_id}/edit$`));
  const row = section(page, 'AL30 y GD30: pesos, MEP y cable').locator(`[role="row"][data-symbol="${added}"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-stale', 'false');
  await expect(row.locator('[data-field="last"]')).toHaveText(/^\d{1,3}(\.\d{3})*,\d$/);

  // Back: the detail as it was; back again: the results without it.
  await page.goBack();
  await expect(detailOf(page, added)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/backend\/pages\/generic\/search\?DLR$/);
  await expect(page.getByRole('heading', { name: 'Símbolos', level: 2 })).toBeVisible();
  await expect(detailOf(page, added)).toHaveCount(0);
  await context.close();
});

test('a symbol already on a board is said, and nothing is offered to add it twice', async ({ browser }) => {
  const dolar = await visorNamed('Dólar: futuros y MEP');
  const onDolar = boardSymbols(dolar).find((symbol) => /^DLR\/[A-Z]{3}\d\d$/.test(symbol))!;
  const context = await browser.newContext({ baseURL: proxy.url, viewport: { width: 1400, height: 1000 } });
  const page = await signedIn(context);

  // A link opens the detail by itself.
  await page.goto(detailPath('DLR', onDolar));
  let detail = detailOf(page, onDolar);
  await detail.getByLabel('Visor', { exact: true }).selectOption({ label: 'Dólar: futuros y MEP' });
  await expect(detail.getByRole('status')).toHaveText(`${onDolar} ya está en «Futuros de dólar y A3500».`);
  await expect(detail.getByRole('button', { name: /^Agregar a/ })).toHaveCount(0);

  // The one test 1 added, on the Bonos board: the same; the server still has it once.
  await page.goto(detailPath('DLR', added));
  detail = detailOf(page, added);
  await detail.getByLabel('Visor', { exact: true }).selectOption({ label: 'Bonos AL30 y GD30' });
  await expect(detail.getByRole('status')).toHaveText(`${added} ya está en «AL30 y GD30: pesos, MEP y cable».`);
  await expect(detail.getByRole('button', { name: /^Agregar a/ })).toHaveCount(0);
  // Not on the Dólar visor's board: that one offers to add it.
  await detail.getByLabel('Visor', { exact: true }).selectOption({ label: 'Dólar: futuros y MEP' });
  await expect(detail.getByRole('button', { name: 'Agregar a «Futuros de dólar y A3500»' })).toBeVisible();
  expect(boardSymbols(await visorNamed('Bonos AL30 y GD30')).filter((symbol) => symbol === added)).toHaveLength(1);

  // Opened by a link, closing it leaves the results in its place.
  await detail.getByRole('button', { name: 'Cerrar el detalle' }).click();
  await expect(page).toHaveURL(/\/backend\/pages\/generic\/search\?DLR$/);
  await expect(detailOf(page, added)).toHaveCount(0);
  await context.close();
});

test('a visor without a quote board is offered one; offline the board is kept and reaches the server with the network', async ({ browser }) => {
  const created = (await api('POST', `/api/visores/${userId}/new`, { title: 'Sin tablas', emoji: '', color: '#22c55e', folder_id: null })) as {
    data: { id_visor: string };
  };
  const visorId = created.data.id_visor;
  const formulas = {
    id: 'f1',
    type: 'formula',
    title: 'Fórmulas',
    layout: { x: 0, y: 0, w: 6, h: 4 },
    config: { formulas: [{ name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D' }] },
  };
  await api('PUT', `/api/visores/${visorId}/update_secciones`, { secciones: [formulas] });
  const context = await browser.newContext({ baseURL: proxy.url, viewport: { width: 1400, height: 1000 } });
  const page = await signedIn(context);
  await page.goto(detailPath('DLR', 'DLR/SPOT'));
  const detail = detailOf(page, 'DLR/SPOT');
  await expect(field(detail, 'kind')).toHaveText('Spot de referencia');
  await expect(field(detail, 'expiration')).toHaveText('No vence');
  await expect(field(detail, 'note')).toHaveText('En vivo');

  proxy.down();
  await expect(offlineBanner(page)).toBeVisible({ timeout: 30_000 });
  await detail.getByLabel('Visor', { exact: true }).selectOption({ label: 'Sin tablas' });
  await expect(detail.getByText('«Sin tablas» no tiene una tabla de cotizaciones.')).toBeVisible();
  await detail.getByRole('button', { name: 'Crear una tabla con DLR/SPOT' }).click();
  await expect(detail.getByRole('status')).toHaveText(
    'Agregado: DLR/SPOT está en «Cotizaciones» de «Sin tablas». Se guardará en el servidor al volver la conexión. Abrir el visor',
  );
  await expect(detail.getByLabel('Tabla', { exact: true })).toContainText('Cotizaciones (1 fila)');
  await expect(offlineBanner(page)).toContainText('1 cambio se enviará al volver la conexión');
  const offline = (await api('GET', `/api/visores/${visorId}/get`)).data as VisorRead;
  expect(offline.secciones.map((item) => item.type)).toEqual(['formula']);

  proxy.up();
  await expect(offlineBanner(page)).toBeHidden({ timeout: 30_000 });
  await expect.poll(async () => boardSymbols((await api('GET', `/api/visores/${visorId}/get`)).data as VisorRead), { timeout: 30_000 }).toEqual(['DLR/SPOT']);
  await detail.getByRole('link', { name: 'Abrir el visor' }).click();
  await expect(section(page, 'Cotizaciones').locator('[role="row"][data-symbol="DLR/SPOT"]')).toHaveAttribute('data-stale', 'false');
  await context.close();
});
