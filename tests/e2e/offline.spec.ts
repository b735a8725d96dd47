// Offline and flaky connections (issue 21). Playwright's context.setOffline does not reach the
// SharedWorker, which makes every REST call and holds both sockets, so the network is cut for
// real with the TCP proxy of netProxy.ts, in front of a server of this spec's own
// (proxiedServer.ts). The server is read directly, never through the proxy, to check what it has.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';
import type { NetProxy } from '../fakes/netProxy';
import type { OwnServer } from './ownServer';
import { serverRequest, startProxiedServer, type ProxiedServer } from './proxiedServer';
import { section } from './visorHelpers';
import { row, rowAction, workspaceTree } from './workspaceHelpers';

let network: ProxiedServer<OwnServer>;
let server: OwnServer;
let proxy: NetProxy;
let token: string;
let userId: string;

test.describe.configure({ mode: 'serial' });

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

interface TreeRead {
  data: { folder_id?: string; visor_id?: string; name: string; sub?: unknown[] }[];
  version: number;
}
interface VisorRead {
  title: string;
  fav: boolean;
  version: number;
  secciones: { id: string; title: string; layout: { x: number; y: number; w: number; h: number } }[];
}

const readTree = async () => (await api('GET', `/api/visores/${userId}/folders`)) as unknown as TreeRead;
const readVisor = async (visorId: string) => (await api('GET', `/api/visores/${visorId}/get`)).data as VisorRead;

const formula = (id: string, title: string, y: number) => ({
  id,
  type: 'formula',
  title,
  layout: { x: 0, y, w: 6, h: 4 },
  config: { formulas: [{ name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D' }] },
});

/** A folder `folder` at the root of demo's tree and a visor `title` with sections Uno and Dos; answers the visor's id. */
async function seed(folder: string, title: string): Promise<string> {
  const created = (await api('POST', `/api/visores/${userId}/new`, { title, emoji: '', color: '#22c55e', folder_id: null })) as { data: { id_visor: string } };
  const visorId = created.data.id_visor;
  await api('PUT', `/api/visores/${visorId}/update_secciones`, { secciones: [formula('s1', 'Uno', 0), formula('s2', 'Dos', 4)] });
  const tree = await readTree();
  const response = await fetch(`${server.url}/api/visores/${userId}/folders`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'if-match': `"${tree.version}"` },
    body: JSON.stringify([{ folder_id: `F${Date.now()}`, name: folder, emoji: '', sub: [] }, ...tree.data]),
  });
  expect(response.ok, await response.text()).toBe(true);
  return visorId;
}

async function signedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, DEMO);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  return page;
}

const banner = (page: Page) => page.getByRole('status').filter({ hasText: /^Sin conexión desde \d\d:\d\d/ });

/**
 * Drags a section by its grip to the right half of the grid, offline; answers its layout after,
 * once the save state says the outbox keeps it (`unsent`: the header's words).
 */
async function moveRight(page: Page, title: string, unsent: string): Promise<string> {
  const target = section(page, title);
  const before = (await target.boundingBox())!;
  const grip = (await target.locator('.section-frame__grip').boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + before.width / 2 + 40, grip.y + grip.height / 2, { steps: 10 });
  await page.mouse.move(grip.x + before.width + 20, grip.y + grip.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect.poll(async () => Number((await target.getAttribute('data-layout'))?.split(',')[0])).toBeGreaterThan(0);
  await expect(page.locator('.visor-header__save')).toHaveText(unsent);
  return (await target.getAttribute('data-layout'))!;
}

test('an offline rename, favourite and section move reach the server once each when the network returns; two tabs stay consistent', async ({ browser }) => {
  test.setTimeout(120_000);
  const visorId = await seed('Viaje', 'Sin red');
  const treeBefore = await readTree();
  const visorBefore = await readVisor(visorId);
  const context = await browser.newContext({ baseURL: proxy.url, viewport: { width: 1400, height: 900 } });
  const first = await signedIn(context);
  await first.goto(`/visor/${visorId}/edit`);
  const second = await context.newPage();
  await second.goto(`/visor/${visorId}/edit`);
  for (const page of [first, second]) await expect(section(page, 'Uno')).toBeVisible();

  proxy.down();
  for (const page of [first, second]) await expect(banner(page)).toBeVisible();
  // Controls that need the server say why they are off; edits stay on.
  await expect(first.getByRole('button', { name: 'Buscar' })).toBeDisabled();
  await expect(first.getByRole('button', { name: 'Buscar' })).toHaveAttribute('title', 'Sin conexión: esta acción necesita el servidor');

  const tree = workspaceTree(first);
  await rowAction(tree, 'Viaje', 'Editar');
  const dialog = first.getByRole('dialog', { name: 'Carpeta' });
  await dialog.getByPlaceholder('Título de la carpeta').fill('Viaje largo');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await first.getByRole('button', { name: 'Agregar a Favoritos' }).click();
  const moved = await moveRight(first, 'Uno', '3 cambios sin enviar: sin conexión');

  // Every tab shows the edits at once, from the cache; the banner counts them.
  for (const page of [first, second]) {
    await expect(row(workspaceTree(page), 'Viaje largo')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remover Favorito' })).toHaveAttribute('aria-pressed', 'true');
    await expect(section(page, 'Uno')).toHaveAttribute('data-layout', moved);
    await expect(banner(page)).toContainText('3 cambios se enviarán al volver la conexión');
    // The save state says it in every tab, not only in the one that made them.
    await expect(page.locator('.visor-header__save')).toHaveText('3 cambios sin enviar: sin conexión');
  }
  // The server has none of them yet.
  expect(await readTree()).toEqual(treeBefore);
  expect(await readVisor(visorId)).toEqual(visorBefore);

  proxy.up();
  for (const page of [first, second]) await expect(banner(page)).toBeHidden({ timeout: 30_000 });
  await expect.poll(async () => (await readVisor(visorId)).fav, { timeout: 30_000 }).toBe(true);
  await expect.poll(async () => (await readVisor(visorId)).version).toBe(visorBefore.version + 1);
  const after = await readVisor(visorId);
  const uno = after.secciones.find((item) => item.id === 's1')!;
  expect([uno.layout.x, uno.layout.y, uno.layout.w, uno.layout.h].join(',')).toBe(moved);
  const treeAfter = await readTree();
  expect(treeAfter.data.filter((node) => node.name === 'Viaje largo')).toHaveLength(1);
  expect(treeAfter.data.filter((node) => node.name === 'Viaje')).toHaveLength(0);
  // Once each: the rename is one tree save, the favourite one more (its leaf); the sections one save.
  expect(treeAfter.version).toBe(treeBefore.version + 2);
  // Both tabs show the server's state, and are live again.
  for (const page of [first, second]) {
    await expect(page.getByRole('button', { name: 'Remover Favorito' })).toHaveAttribute('aria-pressed', 'true');
    await expect(section(page, 'Uno')).toHaveAttribute('data-layout', moved);
    await expect(page.locator('.visor-header__save')).toHaveText('Guardado');
    await expect(first.getByRole('button', { name: 'Buscar' })).toBeEnabled();
  }
  await context.close();
});

const DOLLAR = 'DLR/DIC26';
const quoteRow = (page: Page, symbol: string) => page.getByRole('row').and(page.locator(`[data-symbol="${symbol}"]`));

/** The row shows a live price (not the cached one), and it moves while we watch. */
async function expectLivePrices(page: Page, symbol: string): Promise<void> {
  await expect(quoteRow(page, symbol)).toHaveAttribute('data-stale', 'false', { timeout: 30_000 });
  // Its book and last trade (not the session's volume, which holds outside the market's hours).
  const cells = quoteRow(page, symbol).getByRole('cell');
  const prices = async () => (await Promise.all([0, 1, 2].map((index) => cells.nth(index).textContent()))).join(' ');
  const first = await prices();
  await expect.poll(prices, { timeout: 20_000 }).not.toBe(first);
}

test('a connection that drops every few seconds while the user edits and watches quotes ends with the server equal to the edits, sockets live, quotes current, no storm of errors', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const visorId = await seed('Intermitente', 'Con cortes');
  const context = await browser.newContext({ baseURL: proxy.url, viewport: { width: 1400, height: 900 } });
  const editor = await signedIn(context);
  await editor.goto(`/visor/${visorId}/edit`);
  await expect(section(editor, 'Uno')).toBeVisible();
  const board = await context.newPage();
  await board.goto(`/test?simbolos=${encodeURIComponent(DOLLAR)}`);
  await expectLivePrices(board, DOLLAR);
  const consoleErrors: string[] = [];
  for (const page of [editor, board]) page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));

  let title = 'Uno';
  let fav = false;
  let folder = 'Intermitente';
  const DROPS = 6;
  for (let cycle = 0; cycle < DROPS; cycle++) {
    proxy.down();
    // Edits while the network is gone: a section renamed, the favourite flipped every other time.
    const next = `Uno ${cycle}`;
    const input = section(editor, title).getByRole('textbox', { name: 'Título de la sección' });
    await input.fill(next);
    await input.press('Enter');
    await expect(section(editor, next)).toBeVisible();
    title = next;
    if (cycle % 2 === 0) {
      await editor.getByRole('button', { name: fav ? 'Remover Favorito' : 'Agregar a Favoritos' }).click();
      fav = !fav;
      await expect(editor.getByRole('button', { name: fav ? 'Remover Favorito' : 'Agregar a Favoritos' })).toBeVisible();
    }
    await editor.waitForTimeout(2000);
    proxy.up();
    // And while it is back, racing the replay: the folder renamed every third time.
    if (cycle % 3 === 1) {
      const renamed = `Intermitente ${cycle}`;
      await rowAction(workspaceTree(editor), folder, 'Editar');
      const dialog = editor.getByRole('dialog', { name: 'Carpeta' });
      await dialog.getByPlaceholder('Título de la carpeta').fill(renamed);
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await expect(dialog).toBeHidden();
      folder = renamed;
    }
    await editor.waitForTimeout(2500);
  }

  // The network stays: every edit reaches the server, as made.
  for (const page of [editor, board]) await expect(page.getByRole('status').filter({ hasText: /^Sin conexión|^Enviando/ })).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(async () => (await readVisor(visorId)).secciones.find((item) => item.id === 's1')?.title, { timeout: 30_000 }).toBe(title);
  expect((await readVisor(visorId)).fav).toBe(fav);
  expect((await readTree()).data.filter((node) => node.name === folder)).toHaveLength(1);
  await expect(editor.getByRole('button', { name: fav ? 'Remover Favorito' : 'Agregar a Favoritos' })).toBeVisible();
  await expect(row(workspaceTree(board), folder)).toBeVisible();

  // The market socket is live again with the board's symbol, and the quotes are current.
  const admin = await api('POST', '/api/login', { username: 'admin', password: 'admin1234' }, null);
  await expect
    .poll(async () => {
      const sockets = (await api('GET', '/api/admin/market/sockets', undefined, admin.token as string)).data as {
        user: { username: string };
        symbols: string[];
      }[];
      return sockets.filter((socket) => socket.user.username === DEMO.username).flatMap((socket) => socket.symbols);
    })
    .toContain(DOLLAR);
  await expectLivePrices(board, DOLLAR);

  // No storm: a few lines per drop in the worker's event log and the console, not one per retry.
  await board.getByText('Registro de eventos').click();
  const entries = board.getByRole('list', { name: 'Eventos' }).getByRole('listitem');
  await expect(entries.first()).toBeVisible();
  const lines = await entries.allTextContents();
  console.log(`event log: ${lines.length} entries\n${lines.join('\n')}\nconsole errors: ${consoleErrors.length}\n${consoleErrors.join('\n')}`);
  expect(lines.length).toBeLessThanOrEqual(DROPS * 4);
  expect(consoleErrors.length).toBeLessThanOrEqual(DROPS);
  await context.close();
});

test('with the server unreachable and a token stored, the app starts with the last signed-in user; a 401 once it answers signs out', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: proxy.url });
  const page = await signedIn(context);
  await expect(row(workspaceTree(page), 'Viaje largo')).toBeVisible();
  const stored = await page.evaluate(() => localStorage.getItem('visores.token'));

  // The network gone; the page itself still loads (as the service worker will serve the shell:
  // here Playwright hands the page's files over from the server directly), its API calls fail.
  proxy.down();
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) return route.abort('internetdisconnected');
    return route.fulfill({ response: await route.fetch({ url: `${server.url}${url.pathname}${url.search}` }) });
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await expect(banner(page)).toBeVisible();
  await expect(row(workspaceTree(page), 'Viaje largo')).toBeVisible();

  // The session ended elsewhere meanwhile: the server refuses the token as soon as it answers.
  await api('POST', '/api/logout', { log: 'fin' }, stored);
  // Requests still being answered by the handler are let go (their fulfill would throw once unrouted).
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  proxy.up();
  await expect(page).toHaveURL(/\/auth\/signin/, { timeout: 30_000 });
  expect(await page.evaluate(() => localStorage.getItem('visores.token'))).toBeNull();
  await context.close();
});

test('the outbox outlives every tab: a new tab’s worker replays it; a change of a visor deleted elsewhere (410) is dropped with a toast saying so, the rest applied', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const kept = await seed('Cierre', 'Se guarda');
  const refused = await seed('Cierre 2', 'Se borra');
  const context = await browser.newContext({ baseURL: proxy.url, viewport: { width: 1400, height: 900 } });
  const page = await signedIn(context);
  await page.goto(`/visor/${kept}/edit`);
  await expect(section(page, 'Uno')).toBeVisible();

  proxy.down();
  await expect(banner(page)).toBeVisible();
  await page.getByRole('button', { name: 'Agregar a Favoritos' }).click();
  await rowAction(workspaceTree(page), 'Se borra', 'Editar');
  const dialog = page.getByRole('dialog', { name: 'Visor' });
  await dialog.getByPlaceholder('Título del visor').fill('Renombrado sin red');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(banner(page)).toContainText('2 cambios se enviarán al volver la conexión');
  // Meanwhile another device deletes the visor renamed here.
  await api('DELETE', `/api/visores/${refused}`);

  // Every tab closed: the data worker ends with them.
  await page.close();
  const next = await context.newPage();
  await next.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws/')) return route.abort('internetdisconnected');
    return route.fulfill({ response: await route.fetch({ url: `${server.url}${url.pathname}${url.search}` }) });
  });
  await next.goto('/');
  await expect(banner(next)).toContainText('2 cambios se enviarán al volver la conexión');
  expect((await readVisor(kept)).fav).toBe(false);

  // Requests still being answered by the handler are let go (their fulfill would throw once unrouted).
  await next.unrouteAll({ behavior: 'ignoreErrors' });
  proxy.up();
  await expect(next.getByText('El visor «Renombrado sin red» se borró en otro dispositivo: se descartaron los cambios hechos en él sin conexión.')).toBeVisible(
    {
      timeout: 30_000,
    },
  );
  await expect.poll(async () => (await readVisor(kept)).fav).toBe(true);
  await expect(next.getByRole('status').filter({ hasText: /^Sin conexión|^Enviando/ })).toHaveCount(0);
  await expect(row(workspaceTree(next), 'Se guarda')).toBeVisible();
  await expect(row(workspaceTree(next), 'Renombrado sin red')).toHaveCount(0);
  await context.close();
});
