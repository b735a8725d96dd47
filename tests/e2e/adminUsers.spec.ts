// The admin's Usuarios and Posiciones pages (issue 20) as an operator uses them: create a
// user who then signs in elsewhere, disable them and see their session end; the last admin
// cannot be demoted (the server's message in the modal) nor deleted; search, sort and pages;
// delete behind the spec's confirmation; connect the paper broker and watch an account's
// live positions; a user who is not an admin is sent to sign-in; axe finds nothing serious.
//
// A server of the spec's own: the last-admin rule and the paging count need to know every
// account there is, which the shared server's other specs would change.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { ADMIN, DEMO, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';

let server: OwnServer;

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  server = await startOwnServer();
});

test.afterAll(async () => {
  await server?.stop();
});

const url = (path: string) => `${server.url}${path}`;
const LAST_ADMIN = 'No se puede quitar ni deshabilitar al último administrador';

async function signInAt(page: Page, account: { username: string; password: string }) {
  await signIn(page, account, url('/auth/signin'));
  await expect(page).toHaveURL(/\/(admin)?$/);
}

async function adminPage(browser: Browser, path: string, colorMode: 'dark' | 'light' = 'dark') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url('/auth/signin'));
  await page.evaluate((mode) => localStorage.setItem('darkMode', mode), colorMode);
  await signInAt(page, ADMIN);
  await page.goto(url(path));
  return page;
}

async function adminToken(request: APIRequestContext) {
  const response = await request.post(url('/api/login'), { data: ADMIN });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

const usersTable = (page: Page) => page.getByRole('table', { name: 'Usuarios' });
const userRow = (page: Page, username: string) => usersTable(page).locator(`tbody tr[data-username="${username}"]`);
const shownUsernames = (page: Page) =>
  usersTable(page)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-username') ?? ''));

test('an admin creates a user who signs in elsewhere; disabling them from Usuarios ends their session', async ({ browser }) => {
  const admin = await adminPage(browser, '/users');
  await expect(admin.getByRole('heading', { name: 'Usuarios', level: 1 })).toBeVisible();
  await expect(admin.getByRole('navigation', { name: 'Ruta' }).getByRole('link', { name: 'Admin' })).toBeVisible();

  await admin.getByRole('button', { name: 'Nuevo usuario' }).click();
  const modal = admin.getByRole('dialog', { name: 'Nuevo usuario' });
  await modal.getByLabel('Usuario').fill('operadora.uno');
  await modal.getByLabel('Nombre').fill('Ana');
  await modal.getByLabel('Apellido').fill('Operadora');
  await modal.getByLabel('Contraseña').fill('corta');
  await modal.getByRole('button', { name: 'Guardar' }).click();
  // The server's own refusal, in the modal, which stays open.
  await expect(modal.getByRole('alert')).toContainText('8');
  await modal.getByLabel('Contraseña').fill('clave-de-ana-1');
  await modal.getByRole('button', { name: 'Guardar' }).click();
  await expect(modal).toBeHidden();
  const row = userRow(admin, 'operadora.uno');
  await expect(row).toContainText('Ana');
  await expect(row).toContainText('Operadora');
  await expect(row.locator('[data-column="active"]')).toHaveText('Sí');
  await expect(row.locator('[data-column="last_login_at"]')).toHaveText('Nunca');

  const userContext = await browser.newContext();
  const user = await userContext.newPage();
  await signInAt(user, { username: 'operadora.uno', password: 'clave-de-ana-1' });
  await expect(user.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();

  // Her sign-in shows as her last one.
  await admin.reload();
  await expect(userRow(admin, 'operadora.uno').locator('[data-column="last_login_at"] time')).toBeVisible();

  await admin.getByRole('button', { name: 'Editar operadora.uno' }).click();
  const edit = admin.getByRole('dialog', { name: 'Editar operadora.uno' });
  await edit.getByLabel('Activo').uncheck();
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(edit).toBeHidden();
  await expect(userRow(admin, 'operadora.uno').locator('[data-column="active"]')).toHaveText('No');

  // Her next navigation goes to sign-in.
  await user.goto(url('/config/profile'));
  await expect(user).toHaveURL(/\/auth\/signin/);
  await signIn(user, { username: 'operadora.uno', password: 'clave-de-ana-1' }, url('/auth/signin'));
  await expect(user.getByRole('alert')).toBeVisible();
  await expect(user).toHaveURL(/\/auth\/signin/);
  await userContext.close();
  await admin.context().close();
});

test("the last admin cannot be demoted nor deleted: the server's message is shown", async ({ browser }) => {
  const page = await adminPage(browser, '/users');
  await page.getByRole('button', { name: 'Editar admin' }).click();
  const modal = page.getByRole('dialog', { name: 'Editar admin' });
  await modal.getByLabel('Rol').selectOption('user');
  await modal.getByRole('button', { name: 'Guardar' }).click();
  await expect(modal.getByRole('alert')).toHaveText(LAST_ADMIN);
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Cancelar' }).click();
  await expect(modal).toBeHidden();
  await expect(userRow(page, 'admin').locator('[data-column="role"]')).toHaveText('Administrador');

  await page.getByRole('button', { name: 'Eliminar admin' }).click();
  const confirm = page.getByRole('alertdialog', { name: '¿Estas seguro?' });
  await confirm.getByRole('button', { name: 'Si, borrar' }).click();
  await expect(page.getByText(LAST_ADMIN)).toBeVisible();
  await expect(userRow(page, 'admin')).toBeVisible();
  await page.context().close();
});

test('searches, sorts and pages the users; deletes one only after the confirmation', async ({ browser, request }) => {
  const token = await adminToken(request);
  for (let index = 0; index < 12; index += 1) {
    const response = await request.post(url('/api/admin/users'), {
      data: { username: `pagina${String(index).padStart(2, '0')}`, password: 'clave-segura-1', firstName: index === 7 ? 'Único' : 'Nombre', lastName: 'Lista' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.ok(), await response.text()).toBe(true);
  }
  const page = await adminPage(browser, '/users');
  const pager = page.getByRole('navigation', { name: 'Páginas de usuarios' });
  // admin, demo, operadora.uno and the twelve: 15 users, 10 a page.
  await expect(page.getByText('15 usuarios')).toBeVisible();
  await expect(pager).toContainText('Página 1 de 2');
  await expect(usersTable(page).locator('tbody tr')).toHaveCount(10);
  const firstPage = await shownUsernames(page);
  expect(firstPage).toEqual([...firstPage].sort());
  await pager.getByRole('button', { name: 'Siguiente' }).click();
  await expect(pager).toContainText('11–15 de 15 · Página 2 de 2');
  await expect(usersTable(page).locator('tbody tr')).toHaveCount(5);
  await expect(pager.getByRole('button', { name: 'Siguiente' })).toBeDisabled();

  // Sorting by username the other way round puts the last one first.
  const usernameHeader = usersTable(page).locator('th[data-column="username"]');
  await usernameHeader.getByRole('button').click();
  await expect(usernameHeader).toHaveAttribute('aria-sort', 'descending');
  await pager.getByRole('button', { name: 'Anterior' }).click();
  const descending = await shownUsernames(page);
  expect(descending[0]).toBe('pagina11');
  expect(descending).toEqual([...descending].sort().reverse());
  // Sorted by last sign-in, newest first: admin signed in last; who never did come after.
  const lastSignIn = usersTable(page).locator('th[data-column="last_login_at"]');
  await lastSignIn.getByRole('button').click();
  await expect(lastSignIn).toHaveAttribute('aria-sort', 'descending');
  expect((await shownUsernames(page))[0]).toBe('admin');

  // The search: names too, without accents; the pages start again.
  await page.getByLabel('Buscar usuarios').fill('unico');
  await expect(page.getByText('1 de 15 usuarios')).toBeVisible();
  expect(await shownUsernames(page)).toEqual(['pagina07']);
  await page.getByLabel('Buscar usuarios').fill('nadie-se-llama-asi');
  await expect(page.getByText('Ningún usuario coincide con la búsqueda')).toBeVisible();
  await page.getByLabel('Buscar usuarios').fill('pagina0');
  await expect(usersTable(page).locator('tbody tr')).toHaveCount(10);

  // Delete: cancel keeps the user, confirm removes them.
  await page.getByRole('button', { name: 'Eliminar pagina03' }).click();
  const confirm = page.getByRole('alertdialog', { name: '¿Estas seguro?' });
  await expect(confirm).toContainText('¡No podrás revertir esto!');
  await confirm.getByRole('button', { name: 'No, cancelar' }).click();
  await expect(confirm).toBeHidden();
  await expect(userRow(page, 'pagina03')).toBeVisible();
  await page.getByRole('button', { name: 'Eliminar pagina03' }).click();
  await confirm.getByRole('button', { name: 'Si, borrar' }).click();
  await expect(userRow(page, 'pagina03')).toHaveCount(0);
  await expect(page.getByText('9 de 14 usuarios')).toBeVisible();
  await page.context().close();
});

test('Posiciones: connect the paper broker, watch its account live, stop watching', async ({ browser }) => {
  const page = await adminPage(browser, '/posiciones');
  await expect(page.getByRole('heading', { name: 'Posiciones', level: 1 })).toBeVisible();
  await expect(page.getByText('No hay sesiones de broker')).toBeVisible();
  const brokerField = page.getByLabel('Broker', { exact: true });
  await expect(brokerField).toHaveValue('sim://');
  // A broker the server does not allow: its refusal under the form, the password field emptied.
  await brokerField.fill('https://broker-no-habilitado.example');
  await page.getByLabel('Usuario del broker').fill('operador');
  await page.getByLabel('Contraseña').fill('secreta');
  await page.getByRole('button', { name: 'Conectar' }).click();
  await expect(page.getByRole('alert')).toContainText('La dirección del broker no está permitida');
  await expect(page.getByLabel('Contraseña')).toHaveValue('');
  await expect(page.getByText('No hay sesiones de broker')).toBeVisible();
  await brokerField.fill('sim://');
  await expect(page.getByLabel('Usuario del broker')).toBeDisabled();
  await page.getByRole('button', { name: 'Conectar' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);

  const sessions = page.getByRole('table', { name: 'Sesiones de broker' });
  const accountRow = sessions.locator('tr[data-account="DEMO-ADMIN"]');
  await expect(accountRow).toContainText('Simulador (sim://)');
  await expect(accountRow).toContainText('admin');

  // The one account of the paper session is watched at once, live from the market feed.
  const positions = page.getByRole('table', { name: 'Posiciones de DEMO-ADMIN' });
  await expect(positions.locator('tbody tr').first()).toBeVisible();
  await expect(positions.locator('tbody tr[data-live="true"]').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cuenta DEMO-ADMIN' }).getByRole('heading', { name: 'Operaciones' })).toBeVisible();
  // This tab's socket subscription shows in the server's count, and the worker's state.
  await expect(accountRow.locator('[data-field="subscribers"]')).toHaveText('1');
  await expect(page.getByText('Conexión de posiciones: Conectada')).toBeVisible();
  // The worker's log of the positions connection: its subscription to the account.
  await expect(page.getByRole('list', { name: 'Eventos de posiciones' })).toContainText('suscripto a POS:primary:DEMO-ADMIN');
  await page.getByText('Registro de eventos completo').click();
  await expect(page.getByRole('list', { name: 'Eventos', exact: true }).locator('li').first()).toBeVisible();

  await accountRow.getByRole('button', { name: 'Dejar de vigilar' }).click();
  await expect(positions).toBeHidden();
  await expect(page.getByText('No vigila ninguna cuenta')).toBeVisible();
  await expect(accountRow.locator('[data-field="subscribers"]')).toHaveText('0');
  await accountRow.getByRole('button', { name: 'Vigilar' }).click();
  await expect(positions.locator('tbody tr').first()).toBeVisible();
  await page.context().close();
});

/** Off, saying why (issue 21): the title of a control that needs the server, offline (src/data/offline.ts). */
async function expectOffForServer(button: Locator): Promise<void> {
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute('title', 'Sin conexión: esta acción necesita el servidor');
}

// The tab's view of the network is enough here: context.setOffline turns navigator.onLine off in
// the page, which the app's connection state takes as offline.
test('offline, the Usuario modal’s Guardar and the log’s CSV export are off saying why', async ({ browser }) => {
  const page = await adminPage(browser, '/users');
  const context = page.context();
  // The modal was opened online; the network goes while it is open.
  await page.getByRole('button', { name: 'Nuevo usuario' }).click();
  const save = page.getByRole('dialog', { name: 'Nuevo usuario' }).getByRole('button', { name: 'Guardar' });
  await expect(save).toBeEnabled();
  await context.setOffline(true);
  await expectOffForServer(save);
  await context.setOffline(false);
  await expect(save).toBeEnabled();
  await page.keyboard.press('Escape');

  await page.goto(url('/admin/datacenter/logs-operadores'));
  const exportCsv = page.getByRole('button', { name: 'Exportar CSV' });
  await expect(exportCsv).toBeEnabled();
  await context.setOffline(true);
  await expectOffForServer(exportCsv);
  await context.setOffline(false);
  await expect(exportCsv).toBeEnabled();
  await context.close();
});

test('offline, the delete confirmation’s Si, borrar and the feed stop’s Sí, detener are off saying why, also when the network goes with them open', async ({
  browser,
}) => {
  const page = await adminPage(browser, '/users');
  const context = page.context();
  // Opened online; the network goes while it is open, and comes back.
  await page.getByRole('button', { name: 'Eliminar demo' }).click();
  const confirm = page.getByRole('alertdialog', { name: '¿Estas seguro?' });
  const remove = confirm.getByRole('button', { name: 'Si, borrar' });
  await expect(remove).toBeEnabled();
  await context.setOffline(true);
  await expectOffForServer(remove);
  // Cancelling stays on: it asks nothing of the server.
  await expect(confirm.getByRole('button', { name: 'No, cancelar' })).toBeEnabled();
  await context.setOffline(false);
  await expect(remove).toBeEnabled();
  await expect(remove).not.toHaveAttribute('title');
  await confirm.getByRole('button', { name: 'No, cancelar' }).click();
  await expect(confirm).toBeHidden();
  await expect(userRow(page, 'demo')).toBeVisible();

  await page.goto(url('/admin/datacenter/tv'));
  await page.getByRole('button', { name: 'Detener feed' }).click();
  const stop = confirm.getByRole('button', { name: 'Sí, detener' });
  await expect(stop).toBeEnabled();
  await context.setOffline(true);
  await expectOffForServer(stop);
  await context.setOffline(false);
  await expect(stop).toBeEnabled();
  await confirm.getByRole('button', { name: 'No, cancelar' }).click();
  await expect(confirm).toBeHidden();
  await context.close();
});

test('offline, Posiciones’ Vigilar and Conectar are off saying why', async ({ browser }) => {
  const page = await adminPage(browser, '/posiciones');
  const context = page.context();
  // The paper broker connected, its account watched at once; stopped, so Vigilar shows.
  await page.getByRole('button', { name: 'Conectar' }).click();
  const accountRow = page.getByRole('table', { name: 'Sesiones de broker' }).locator('tr[data-account="DEMO-ADMIN"]');
  await accountRow.getByRole('button', { name: 'Dejar de vigilar' }).click();
  const watch = accountRow.getByRole('button', { name: 'Vigilar' });
  await expect(watch).toBeEnabled();
  await context.setOffline(true);
  await expectOffForServer(watch);
  await expectOffForServer(page.getByRole('button', { name: 'Conectar' }));
  await context.setOffline(false);
  await expect(watch).toBeEnabled();
  await context.close();
});

test('a user who is not an admin is sent to sign-in from Usuarios and Posiciones', async ({ page }) => {
  for (const path of ['/users', '/posiciones']) {
    await signInAt(page, DEMO);
    await page.goto(url(path));
    await expect(page).toHaveURL(new RegExp(`/auth/signin\\?next=${encodeURIComponent(path).replace(/\//g, '%2F')}$`));
    await expect(page.getByRole('button', { name: 'Ingresar' })).toBeVisible();
    // The guard removed the token: the user is signed out, not only turned away.
    expect(await page.evaluate(() => localStorage.getItem('visores.token'))).toBeNull();
  }
});

for (const colorMode of ['dark', 'light'] as const) {
  test(`axe finds nothing serious on Usuarios and Posiciones (${colorMode})`, async ({ browser }) => {
    const page = await adminPage(browser, '/users', colorMode);
    await expect(usersTable(page)).toBeVisible();
    const serious = async () =>
      // The app's toaster (sonner, ui/AppToaster) is not part of these pages; its toasts come and go.
      (await new AxeBuilder({ page }).exclude('[data-sonner-toaster]').analyze()).violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    expect(await serious()).toEqual([]);
    // The modal, with the server's refusal in it.
    await page.getByRole('button', { name: 'Editar admin' }).click();
    const modal = page.getByRole('dialog', { name: 'Editar admin' });
    await modal.getByLabel('Activo').uncheck();
    await modal.getByRole('button', { name: 'Guardar' }).click();
    await expect(modal.getByRole('alert')).toHaveText(LAST_ADMIN);
    expect(await serious()).toEqual([]);
    await page.keyboard.press('Escape');

    await page.goto(url('/posiciones'));
    await page.getByRole('button', { name: 'Conectar' }).click();
    await expect(page.getByRole('table', { name: 'Posiciones de DEMO-ADMIN' }).locator('tbody tr[data-live="true"]').first()).toBeVisible();
    expect(await serious()).toEqual([]);
    await page.context().close();
  });
}
