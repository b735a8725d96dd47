// The positions section (issue 19) as a person uses it: added to a visor, the paper broker
// connects by itself, an account is picked, positions show with a live P&L and the fills
// grow as the paper broker fills orders; after a reload it is live again without a login.
// Two sections and two tabs on one account share one socket subscription (the server's
// count, GET /admin/positions). A visitor of the public visor gets none of the owner's broker
// (account, address, broker username), is asked for no broker login and connects nothing; a
// clone they make starts without a broker of its own; the owner sees it live in public mode.
//
// A Primary API broker (the local fake of tests/fakes) asks for its password, which is sent
// once and stored nowhere; a reload reuses the session; after a server restart (the session
// is gone) the section asks for the password again.
//
// A server of the spec's own, whose paper broker fills an order about every second
// (PAPER_FILL_SECONDS=1; 20 s by default), and that allows the fake Primary API (BROKER_URLS).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PRIVATE_POSITIONS } from '../../src/features/visor/sections/positions/positionsMessages';
import { SESSION_ENDED } from '../../src/features/visor/sections/positions/positionsMessages';
import { startFakePrimary, type FakePrimaryServer } from '../fakes/primaryServer';
import { ADMIN, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';
import { expectSaved, section } from './visorHelpers';

let server: OwnServer;
let exchange: FakePrimaryServer;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  exchange = await startFakePrimary();
  server = await startOwnServer({ PAPER_FILL_SECONDS: '1', BROKER_URLS: new URL(exchange.baseUrl).origin });
});

test.afterAll(async () => {
  await server?.stop();
  await exchange?.close();
});

interface Account {
  username: string;
  password: string;
}

async function login(request: APIRequestContext, account: Account) {
  const response = await request.post(`${server.url}/api/login`, { data: account });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { token: string; user: { _id: string } };
}

/** A fresh user of the spec's server, made by the admin. */
async function newUser(request: APIRequestContext, prefix: string): Promise<Account> {
  const admin = await login(request, ADMIN);
  const account = { username: `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`, password: 'clave-segura-1' };
  const response = await request.post(`${server.url}/api/admin/users`, { data: account, headers: { authorization: `Bearer ${admin.token}` } });
  expect(response.ok(), await response.text()).toBe(true);
  return account;
}

const paperAccount = (account: Account) => `DEMO-${account.username.toUpperCase()}`;

const positionsSection = (id: string, title: string, y: number, account: string) => ({
  id,
  type: 'positions',
  title,
  layout: { x: 0, y, w: 12, h: 9 },
  config: { account, brokerUrl: 'sim://' },
});

/** A visor of the account with these sections; answers its id. */
async function seedVisor(request: APIRequestContext, account: Account, secciones: unknown[], options: { public?: boolean } = {}) {
  const { token, user } = await login(request, account);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post(`${server.url}/api/visores/${user._id}/new`, {
    data: { title: 'Cartera', emoji: '💼', color: '#22c55e', folder_id: null },
    headers,
  });
  expect(created.ok(), await created.text()).toBe(true);
  const visorId = ((await created.json()) as { data: { id_visor: string } }).data.id_visor;
  const saved = await request.put(`${server.url}/api/visores/${visorId}/update_secciones`, { data: { secciones }, headers });
  expect(saved.ok(), await saved.text()).toBe(true);
  if (options.public) {
    const shared = await request.put(`${server.url}/api/visores/${visorId}/check_option`, { data: { option: 'public', value: true }, headers });
    expect(shared.ok(), await shared.text()).toBe(true);
  }
  return visorId;
}

/** The broker sessions of a user as the admin sees them, with each account's socket subscribers. */
async function brokerSessionsOf(request: APIRequestContext, username: string) {
  const admin = await login(request, ADMIN);
  const response = await request.get(`${server.url}/api/admin/positions`, { headers: { authorization: `Bearer ${admin.token}` } });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { data: { user: string; accounts: { account: string; subscribers: number; watched: boolean }[] }[] };
  return body.data.filter((session) => session.user === username);
}

async function signInHere(page: Page, account: Account) {
  await signIn(page, account, `${server.url}/auth/signin`);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
}

/** What the page's origin keeps in the browser: localStorage and every IndexedDB database, as text. */
async function browserStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const dumps = [JSON.stringify({ ...localStorage })];
    for (const { name } of await indexedDB.databases()) {
      if (name == null) continue;
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const opening = indexedDB.open(name);
        opening.onsuccess = () => resolve(opening.result);
        opening.onerror = () => reject(opening.error);
      });
      const values = await Promise.all(
        [...database.objectStoreNames].map(
          (store) =>
            new Promise<unknown[]>((resolve) => {
              const all = database.transaction(store).objectStore(store).getAll();
              all.onsuccess = () => resolve(all.result as unknown[]);
              all.onerror = () => resolve([]);
            }),
        ),
      );
      database.close();
      dumps.push(JSON.stringify(values));
    }
    return dumps.join('\n');
  });
}

const positionsTable = (page: Page, title: string, account: string) => section(page, title).getByRole('table', { name: `Posiciones de ${account}` });
const fillsTable = (page: Page, title: string, account: string) => section(page, title).getByRole('table', { name: `Operaciones de ${account}` });
const MONEY = /^[+-]?\d{1,3}(\.\d{3})*,\d{2}$/;

test('adds a positions section, the paper broker connects, an account is picked: live P&L and fills arriving, again after a reload', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const owner = await newUser(request, 'pos');
  const account = paperAccount(owner);
  const visorId = await seedVisor(request, owner, []);
  await signInHere(page, owner);
  await page.goto(`${server.url}/visor/${visorId}/edit`);

  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: 'Posiciones' }).click();
  const frame = section(page, 'Posiciones');
  await expect(frame).toBeVisible();
  // The settings open on a new section: the paper broker is chosen and connects by itself.
  await expect(frame.getByRole('radio', { name: 'Simulador (sim://)' })).toBeChecked();
  const settings = frame.getByRole('group', { name: 'Configuración de posiciones' });
  // Connected: the settings offer the accounts, and they are the only 'Cuenta' field on screen.
  await expect(settings.getByLabel('Cuenta')).toBeVisible();
  await expect(frame.getByLabel('Cuenta')).toHaveCount(1);
  await settings.getByRole('button', { name: 'Cerrar' }).click();
  await expect(frame.getByText('Elija la cuenta que muestra esta sección.')).toBeVisible();
  await frame.getByLabel('Cuenta').selectOption(account);
  await expectSaved(page);

  const state = frame.getByRole('status').filter({ hasText: 'Conexión de posiciones' });
  await expect(state).toHaveAttribute('data-state', 'open');
  await expect(state).toHaveText('Conexión de posiciones: Conectada');

  // Positions with a live last price and P&L in money and percent, coloured by their sign.
  const table = positionsTable(page, 'Posiciones', account);
  const future = table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: /^DLR\// }) })
    .first();
  await expect(future.locator('[data-field="last"]')).toHaveText(/^\d/);
  const pnl = future.locator('[data-field="pnl"]');
  await expect(pnl).toHaveText(MONEY);
  await expect(future.locator('[data-field="pnl_pct"]')).toHaveText(/^[+-]?\d+,\d{2} %$/);
  const shown = (await pnl.textContent()) ?? '';
  const sign = shown.startsWith('-') ? '-1' : /[1-9]/.test(shown) ? '1' : '0';
  await expect(pnl).toHaveAttribute('data-sign', sign);
  await expect(table.locator('tfoot tr[data-total="ARS"] [data-field="pnl"]')).toHaveText(MONEY);
  // Live: the P&L follows the market without a reload. One instrument's price can hold still for
  // minutes at some hours of the simulated day (DLR's has, 127–175 s), so any position's P&L
  // moving counts; trades in one of the table's instruments come within a minute.
  const allPnl = () => table.locator('tbody [data-field="pnl"]').allTextContents();
  const pnlBefore = (await allPnl()).join('|');
  await expect.poll(async () => (await allPnl()).join('|'), { timeout: 60_000 }).not.toBe(pnlBefore);

  // Fills arrive as the paper broker fills orders, newest first.
  const fills = fillsTable(page, 'Posiciones', account).locator('tbody tr');
  await expect(fills.first()).toBeVisible({ timeout: 20_000 });
  const before = await fills.count();
  const newest = await fills.first().getAttribute('data-exec-id');
  await expect.poll(() => fills.count(), { timeout: 20_000 }).toBeGreaterThan(before);
  await expect(fills.first()).not.toHaveAttribute('data-exec-id', newest ?? '');
  const times = await fills.locator('[data-field="time"]').allTextContents();
  expect([...times].sort().reverse()).toEqual(times);

  // A reload: live again without any login (the paper broker's session is remembered or reconnected).
  await page.reload();
  await expect(positionsTable(page, 'Posiciones', account).locator('tbody tr').first()).toBeVisible();
  await expect(section(page, 'Posiciones').getByRole('status').filter({ hasText: 'Conexión de posiciones' })).toHaveAttribute('data-state', 'open');
  // No password anywhere in the browser's storage (there is none for the paper broker; the session id is all).
  const stored = await page.evaluate(() => localStorage.getItem('visores.brokerSessions'));
  expect(stored).toContain('sim://');
  expect(stored).not.toMatch(/password/i);

  // The event log opens from the section, with the positions socket's lines.
  await section(page, 'Posiciones').getByRole('button', { name: 'Registro de eventos' }).click();
  const log = page.getByRole('dialog', { name: 'Registro de eventos' });
  await expect(log.getByRole('list', { name: 'Eventos' })).toContainText(`Posiciones: suscripto a POS:primary:${account}`);
  await log.getByRole('button', { name: 'Cerrar' }).click();
  await expect(log).toBeHidden();
});

test('two sections in two tabs on one account share one broker session and one socket subscription', async ({ page, request }) => {
  const owner = await newUser(request, 'pos');
  const account = paperAccount(owner);
  const visorId = await seedVisor(request, owner, [positionsSection('p1', 'Cartera A', 0, account), positionsSection('p2', 'Cartera B', 9, account)]);
  await signInHere(page, owner);
  await page.goto(`${server.url}/visor/${visorId}/edit`);
  await expect(positionsTable(page, 'Cartera A', account).locator('tbody tr').first()).toBeVisible();
  await expect(positionsTable(page, 'Cartera B', account).locator('tbody tr').first()).toBeVisible();

  // A second tab of the same browser (same data worker) on the same visor.
  const second = await page.context().newPage();
  await second.goto(`${server.url}/visor/${visorId}/edit`);
  await expect(positionsTable(second, 'Cartera A', account).locator('tbody tr').first()).toBeVisible();
  await expect(positionsTable(second, 'Cartera B', account).locator('tbody tr').first()).toBeVisible();

  // Four sections watching: one session, one subscription on the server.
  await expect
    .poll(async () => (await brokerSessionsOf(request, owner.username)).map((session) => session.accounts.map((item) => [item.account, item.subscribers])))
    .toEqual([[[account, 1]]]);

  // The first tab goes; the other's sections still hold the subscription.
  await page.close();
  await expect(positionsTable(second, 'Cartera A', account).locator('tbody tr').first()).toBeVisible();
  await expect.poll(async () => (await brokerSessionsOf(request, owner.username))[0]?.accounts[0]?.subscribers).toBe(1);
  await second.close();
});

test("a visitor of the public visor gets none of the owner's broker and is asked for no broker login; a clone starts without one; the owner sees it live in public mode", async ({
  browser,
  request,
}) => {
  const owner = await newUser(request, 'pos');
  const visitor = await newUser(request, 'vis');
  const account = paperAccount(owner);
  // A second section on the owner's real broker: its account, address and broker username are the owner's.
  const ownBroker = { account: 'CUENTA-DEL-DUENO', brokerUrl: exchange.baseUrl, username: 'usuario-del-dueno' };
  const visorId = await seedVisor(
    request,
    owner,
    [
      positionsSection('p1', 'Cartera', 0, account),
      { id: 'p2', type: 'positions', title: 'Broker real', layout: { x: 0, y: 9, w: 12, h: 9 }, config: ownBroker },
    ],
    { public: true },
  );

  const visitorContext = await browser.newContext();
  const page = await visitorContext.newPage();
  const brokerCalls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/(primary\/sessions|accounts)\//.test(request.url())) brokerCalls.push(request.url());
  });
  await signInHere(page, visitor);
  await page.goto(`${server.url}/visor/${visorId}/public`);
  for (const title of ['Cartera', 'Broker real']) {
    const frame = section(page, title);
    await expect(frame.getByText(PRIVATE_POSITIONS)).toBeVisible();
    await expect(frame.getByLabel('Contraseña')).toHaveCount(0);
    await expect(frame.getByRole('button', { name: 'Conectar' })).toHaveCount(0);
    await expect(frame.getByRole('table')).toHaveCount(0);
  }
  expect(brokerCalls).toEqual([]);
  expect(await brokerSessionsOf(request, visitor.username)).toEqual([]);
  // What the visitor's browser keeps of the visor (for offline) holds none of the owner's broker.
  await expect.poll(() => browserStorage(page)).toContain(visorId);
  const stored = await browserStorage(page);
  for (const value of [account, ...Object.values(ownBroker)]) expect(stored).not.toContain(value);

  // A clone is the visitor's, without the owner's broker: the paper broker, no account chosen, no password asked.
  await page.getByRole('button', { name: 'Clonar' }).click();
  await expect(page).toHaveURL(/\/visor\/[^/]+\/edit$/);
  for (const title of ['Cartera', 'Broker real']) {
    const frame = section(page, title);
    await expect(frame.getByText(/^Sin cuenta · Simulador/)).toBeVisible();
    await expect(frame.getByLabel('Contraseña')).toHaveCount(0);
    for (const value of [account, ...Object.values(ownBroker)]) await expect(frame).not.toContainText(value);
  }
  await visitorContext.close();

  // The owner, in public mode, sees the positions live.
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signInHere(ownerPage, owner);
  await ownerPage.goto(`${server.url}/visor/${visorId}/public`);
  await expect(positionsTable(ownerPage, 'Cartera', account).locator('tbody tr').first()).toBeVisible();
  await expect(section(ownerPage, 'Cartera').getByRole('status').filter({ hasText: 'Conexión de posiciones' })).toHaveAttribute('data-state', 'open');
  await ownerContext.close();
});

// Last: it restarts the server.
test('a Primary API broker: the password is sent once and kept nowhere, a reload reuses the session, a restarted server asks again (the paper broker reconnects by itself)', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const owner = await newUser(request, 'pri');
  const visorId = await seedVisor(request, owner, [positionsSection('p1', 'Real', 0, ''), positionsSection('p2', 'Papel', 9, paperAccount(owner))]);
  const { username, password } = exchange.credentials;
  await signInHere(page, owner);
  await page.goto(`${server.url}/visor/${visorId}/edit`);
  const frame = section(page, 'Real');
  await frame.getByRole('button', { name: 'Configurar sección' }).click();
  const settings = frame.getByRole('group', { name: 'Configuración de posiciones' });
  await settings.getByRole('radio', { name: 'Primary API' }).check();
  await settings.getByLabel('Dirección').fill(exchange.baseUrl);
  await settings.getByLabel('Usuario').fill(username);
  await settings.getByLabel('Contraseña').fill('equivocada');
  await settings.getByRole('button', { name: 'Conectar' }).click();
  await expect(settings.getByRole('alert')).toHaveText('El broker no aceptó el usuario o la contraseña');
  await expect(settings.getByLabel('Contraseña')).toHaveValue('');
  await settings.getByLabel('Contraseña').fill(password);
  await settings.getByRole('button', { name: 'Conectar' }).click();
  // Its one account is taken; the positions come from the broker.
  await expect(settings.getByLabel('Cuenta', { exact: true })).toHaveValue('REM2747');
  await settings.getByRole('button', { name: 'Cerrar' }).click();
  await expectSaved(page);
  const table = positionsTable(page, 'Real', 'REM2747');
  await expect(table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'DLR/DIC26' }) })).toBeVisible();

  // The config keeps the broker and user, never the password; nor does the browser's storage.
  const { token } = await login(request, owner);
  const visor = (await (await request.get(`${server.url}/api/visores/${visorId}/get`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    data: { secciones: { config: unknown }[] };
  };
  expect(visor.data.secciones[0]!.config).toEqual({ account: 'REM2747', brokerUrl: exchange.baseUrl, username });
  const storage = await browserStorage(page);
  expect(storage).toContain('REM2747');
  expect(storage).not.toContain(password);

  // A reload: the session is reused, no password asked.
  await page.reload();
  await expect(positionsTable(page, 'Real', 'REM2747').locator('tbody tr').first()).toBeVisible();
  await expect(section(page, 'Real').getByLabel('Contraseña')).toHaveCount(0);

  // The server restarts (its broker sessions are gone): the Primary section asks for the password
  // again; the paper broker's connects a new session by itself.
  await server.stop();
  await server.restart();
  await page.reload();
  const again = section(page, 'Real');
  await expect(again.getByRole('alert')).toHaveText(SESSION_ENDED);
  await expect(positionsTable(page, 'Papel', paperAccount(owner)).locator('tbody tr').first()).toBeVisible();
  await expect(section(page, 'Papel').getByLabel('Contraseña')).toHaveCount(0);
  await again.getByLabel('Contraseña').fill(password);
  // With the network gone (the browser's view is enough), Conectar is off and says why.
  await page.context().setOffline(true);
  await expect(again.getByRole('button', { name: 'Conectar' })).toBeDisabled();
  await expect(again.getByRole('button', { name: 'Conectar' })).toHaveAttribute('title', 'Sin conexión: esta acción necesita el servidor');
  await page.context().setOffline(false);
  await again.getByLabel('Contraseña').fill(password);
  await again.getByRole('button', { name: 'Conectar' }).click();
  await expect(positionsTable(page, 'Real', 'REM2747').locator('tbody tr').first()).toBeVisible();
});
