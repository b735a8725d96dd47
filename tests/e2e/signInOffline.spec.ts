// The sign-in form offline (issue 21): Ingresar needs the server, so it is off saying why while
// the tab cannot reach it, and on again when it answers. There is no data worker before sign-in:
// the page follows navigator.onLine (context.setOffline, on the shared server) and asks the
// server's health by itself, after a sign-in got no answer (the TCP proxy of netProxy.ts cutting
// the network for real, in front of a server of this spec's own).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO, expectHome } from './helpers';
import type { OwnServer } from './ownServer';
import { startProxiedServer, type ProxiedServer } from './proxiedServer';

const REASON = 'Sin conexión: esta acción necesita el servidor';
const NO_ANSWER = 'No se pudo conectar con el servidor. Revise su conexión.';

const ingresar = (page: Page) => page.getByRole('button', { name: 'Ingresar' });

async function fill(page: Page): Promise<void> {
  await page.getByLabel('Usuario').fill(DEMO.username);
  await page.getByLabel('Contraseña').fill(DEMO.password);
}

/** Off, saying why: the button's title and description, and the text under it. */
async function expectOffForServer(page: Page, button: Locator): Promise<void> {
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute('title', REASON);
  await expect(button).toHaveAccessibleDescription(REASON);
  await expect(page.locator('#signin-offline')).toHaveText(REASON);
}

async function expectOn(page: Page, button: Locator): Promise<void> {
  await expect(button).toBeEnabled();
  await expect(button).not.toHaveAttribute('title');
  await expect(page.locator('#signin-offline')).toHaveText('');
}

test('with the browser offline, Ingresar is off saying why; on again when the network is back, and it signs in', async ({ page, context }) => {
  await page.goto('/auth/signin');
  await fill(page);
  await expect(ingresar(page)).toBeEnabled();
  await context.setOffline(true);
  await expectOffForServer(page, ingresar(page));
  // Enter in the form sends nothing while it is off.
  await page.getByLabel('Contraseña').press('Enter');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByRole('alert')).toHaveCount(0);

  await context.setOffline(false);
  await expectOn(page, ingresar(page));
  await ingresar(page).click();
  await expectHome(page);
});

test.describe('with the server unreachable', () => {
  let network: ProxiedServer<OwnServer>;

  test.beforeAll(async () => {
    network = await startProxiedServer();
  });

  test.afterAll(async () => {
    await network?.stop();
  });

  test('a sign-in that gets no answer turns Ingresar off saying why; on again when the server answers, and it signs in', async ({ browser }) => {
    const { proxy } = network;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${proxy.url}/auth/signin`);
    await fill(page);
    await expect(ingresar(page)).toBeEnabled();

    // The network goes; the browser does not know (navigator.onLine stays true).
    proxy.down();
    await ingresar(page).click();
    await expect(page.getByRole('alert')).toHaveText(NO_ANSWER);
    await expectOffForServer(page, ingresar(page));
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);

    // Back: the page's own health check sees it (1 s after, doubling to 10 s).
    proxy.up();
    await expectOn(page, ingresar(page));
    await ingresar(page).click();
    await expect(page).toHaveURL(`${proxy.url}/`);
    await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
    await context.close();
  });
});
