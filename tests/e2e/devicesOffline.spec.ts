// Two devices of one user when one of them loses the network: each loads the app through a TCP
// proxy of its own (netProxy.ts), so the desk's network is cut for real (Playwright's setOffline
// does not reach the SharedWorker) while the phone's stays. Each makes its own edits meanwhile;
// when the desk's network is back both end equal to the server. And the visor's save state
// says what is true: *Guardando…* while a save is on its way, *N cambios sin enviar: sin
// conexión* while the outbox keeps it, *Guardado* once the server has it.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';
import { startProxy, type NetProxy } from '../fakes/netProxy';
import { startOwnServer, type OwnServer } from './ownServer';
import { serverRequest } from './proxiedServer';
import { renameSection, section } from './visorHelpers';
import { row, rowAction, treeOrder, workspaceTree } from './workspaceHelpers';

let server: OwnServer;
/** The desk's network. */
let proxy: NetProxy;
/** The phone's network, which stays up. */
let phoneProxy: NetProxy;
let token: string;
let userId: string;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  proxy = await startProxy();
  phoneProxy = await startProxy();
  // The pages of both proxies' origins may open the sockets.
  server = await startOwnServer({ PUBLIC_ORIGINS: `${proxy.url},${phoneProxy.url}` });
  for (const each of [proxy, phoneProxy]) each.target(Number(new URL(server.url).port));
  const login = await api('POST', '/api/login', DEMO, null);
  token = login.token as string;
  userId = (login.user as { _id: string })._id;
});

test.afterAll(async () => {
  await Promise.all([proxy?.close(), phoneProxy?.close()]);
  await server?.stop();
});

/** The server's API, directly (never through the proxy). */
const api = (method: string, path: string, body?: unknown, as: string | null = token) => serverRequest(server.url, method, path, body, as);

async function newVisor(title: string): Promise<string> {
  const created = (await api('POST', `/api/visores/${userId}/new`, { title, emoji: '', color: '#22c55e', folder_id: null })) as { data: { id_visor: string } };
  const visorId = created.data.id_visor;
  const formula = {
    id: 's1',
    type: 'formula',
    title: 'Uno',
    layout: { x: 0, y: 0, w: 6, h: 4 },
    config: { formulas: [{ name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D' }] },
  };
  await api('PUT', `/api/visores/${visorId}/update_secciones`, { secciones: [formula] });
  return visorId;
}

/** The names at the root of the server's tree, in order. */
async function serverRootNames(): Promise<string[]> {
  const tree = (await api('GET', `/api/visores/${userId}/folders`)) as { data: Array<{ name: string }> };
  return tree.data.map((node) => node.name);
}

/** The names at the root of a page's tree, in order. */
async function shownRootNames(page: Page): Promise<string[]> {
  return (await treeOrder(page)).filter((entry) => entry.startsWith('0:')).map((entry) => entry.slice(2));
}

async function device(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await signIn(page, DEMO);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  return page;
}

const banner = (page: Page) => page.getByRole('status').filter({ hasText: /^Sin conexión desde \d\d:\d\d/ });
const saveState = (page: Page) => page.locator('.visor-header__save');

test('the save state: Guardando… on the way, N cambios sin enviar while the network is gone, Guardado once the server has it', async ({ browser }) => {
  const visorId = await newVisor('Estado de guardado');
  const desk = await device(browser, proxy.url);
  try {
    await desk.goto(`/visor/${visorId}/edit`);
    await expect(section(desk, 'Uno')).toBeVisible();
    await expect(saveState(desk)).toHaveText('Guardado');

    // The network goes silent (packets dropped): the save waits for an answer that does not come.
    proxy.down('silent');
    await renameSection(desk, 'Uno', 'Uno sin red');
    await expect(saveState(desk)).toHaveText('Guardando…');
    // No answer within the request's time: the outbox keeps it, and the header says so.
    await expect(saveState(desk)).toHaveText('1 cambio sin enviar: sin conexión', { timeout: 40_000 });
    await expect(banner(desk)).toBeVisible();

    proxy.up();
    await expect(saveState(desk)).toHaveText('Guardado', { timeout: 30_000 });
    await expect(banner(desk)).toBeHidden();
    const stored = (await api('GET', `/api/visores/${visorId}/get`)) as { data: { secciones: Array<{ title: string }> } };
    expect(stored.data.secciones.map((item) => item.title)).toEqual(['Uno sin red']);
  } finally {
    proxy.up();
    await desk.context().close();
  }
});

test('one device edits offline, the other online; when the network is back both show what the server has', async ({ browser }) => {
  await newVisor('Del escritorio');
  await newVisor('Del teléfono');
  const desk = await device(browser, proxy.url);
  const phone = await device(browser, phoneProxy.url);
  try {
    for (const page of [desk, phone]) {
      await expect(row(workspaceTree(page), 'Del escritorio')).toBeVisible();
      await expect(row(workspaceTree(page), 'Del teléfono')).toBeVisible();
    }

    proxy.down();
    await expect(banner(desk)).toBeVisible();
    await rowAction(workspaceTree(desk), 'Del escritorio', 'Editar');
    let dialog = desk.getByRole('dialog', { name: 'Visor' });
    await dialog.getByPlaceholder('Título del visor').fill('Del escritorio, sin red');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(workspaceTree(desk), 'Del escritorio, sin red')).toBeVisible();

    // Meanwhile the phone, online, renames the other visor: the desk cannot hear of it yet.
    await rowAction(workspaceTree(phone), 'Del teléfono', 'Editar');
    dialog = phone.getByRole('dialog', { name: 'Visor' });
    await dialog.getByPlaceholder('Título del visor').fill('Del teléfono, en línea');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(workspaceTree(desk), 'Del teléfono')).toBeVisible();

    proxy.up();
    await expect(banner(desk)).toBeHidden({ timeout: 30_000 });
    for (const page of [desk, phone]) {
      await expect(row(workspaceTree(page), 'Del escritorio, sin red')).toBeVisible();
      await expect(row(workspaceTree(page), 'Del teléfono, en línea')).toBeVisible();
    }
    const expected = await serverRootNames();
    for (const page of [desk, phone]) await expect.poll(() => shownRootNames(page)).toEqual(expected);
  } finally {
    proxy.up();
    await desk.context().close();
    await phone.context().close();
  }
});
