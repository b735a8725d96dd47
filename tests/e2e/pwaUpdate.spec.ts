// A new deploy under open tabs (issue 21): two builds of the client served one after the other
// at the same origin (the spec's own server, restarted with another STATIC_DIR). The waiting
// worker of the second build is offered in every tab with the toast; the tabs stay on the first
// build (a reload too: the old worker still serves it) until Actualizar in one of them; then
// every tab reloads onto the second build, an edit made just before Actualizar is kept, and a
// tab with a modal open waits for it to close.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';
import { htmlData } from './shellHelpers';
import { login, section, seedVisor } from './visorHelpers';
import { openCreate } from './workspaceHelpers';

test.use({ serviceWorkers: 'allow' });

const DEMO = { username: 'demo', password: 'demo1234', firstName: 'Demo', lastName: 'Demo' };
const UPDATE_MESSAGE = 'Hay una nueva versión';

let server: OwnServer;
let secondBuild: string;
let api: APIRequestContext;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  // The second build: the same code built again, so another build id (vite.config.ts) and other
  // hashed files and precache revisions.
  secondBuild = mkdtempSync(path.join(tmpdir(), 'visores-dist-b-'));
  execFileSync(path.join('node_modules', '.bin', 'vite'), ['build', '--outDir', secondBuild, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
  server = await startOwnServer({ STATIC_DIR: 'dist' });
  api = await playwright.request.newContext({ baseURL: server.url });
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  if (secondBuild) rmSync(secondBuild, { recursive: true, force: true });
});

const build = (page: Page) => htmlData(page, 'build');

/** Loads `url` and reloads once the service worker is active: the page is controlled from then on. */
async function openControlled(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller != null)).toBe(true);
}

test('the update toast appears when a second build is served; tabs come up on it only after Actualizar', async ({ context }) => {
  test.setTimeout(120_000);
  const visorId = await seedVisor(api, DEMO, 'Visor de la actualización');

  // Two tabs of the first build, both controlled by its worker; the first signed in on a visor.
  const first = await context.newPage();
  await openControlled(first, `${server.url}/auth/signin`);
  await signIn(first, DEMO, `${server.url}/auth/signin`);
  await expect(first.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await first.goto(`${server.url}/visor/${visorId}/edit`);
  await expect(section(first, 'Uno')).toBeVisible();
  const second = await context.newPage();
  await second.goto(`${server.url}/`);
  await expect(second.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  expect(await second.evaluate(() => navigator.serviceWorker.controller != null)).toBe(true);
  const firstBuild = await build(first);
  expect(firstBuild).toBeTruthy();
  expect(await build(second)).toBe(firstBuild);

  // The deploy: the same origin now serves the second build.
  await server.stop();
  await server.restart({ STATIC_DIR: secondBuild });
  // A tab looks for a new build (it does on focus, on the network's return and every hour).
  await first.evaluate(async () => {
    await (await navigator.serviceWorker.getRegistration())?.update();
  });

  // Every tab offers it, and none has moved.
  for (const page of [first, second]) await expect(page.getByText(UPDATE_MESSAGE)).toBeVisible({ timeout: 20_000 });
  expect(await build(first)).toBe(firstBuild);
  expect(await build(second)).toBe(firstBuild);
  // A reload before Actualizar still comes up on the first build (its worker serves it), offered again.
  await second.reload();
  await expect(second.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  expect(await build(second)).toBe(firstBuild);
  await expect(second.getByText(UPDATE_MESSAGE)).toBeVisible({ timeout: 20_000 });
  // The offer stays until it is taken: no close button.
  await expect(
    first
      .locator('[data-sonner-toast]')
      .filter({ hasText: UPDATE_MESSAGE })
      .getByRole('button', { name: /cerrar|close/i }),
  ).toHaveCount(0);

  // The second tab has a modal open with a half-typed name: it must not reload under it.
  const folderDialog = await openCreate(second, 'Carpeta');
  await folderDialog.getByPlaceholder('Título de la carpeta').fill('A medio escribir');

  // An edit just before Actualizar: the reload waits for it to be kept.
  const title = section(first, 'Uno').getByRole('textbox', { name: 'Título de la sección' });
  await title.fill('Uno editado');
  await title.press('Enter');
  await first.getByRole('button', { name: 'Actualizar' }).click();

  // The first tab reloads onto the second build; the second waits while its modal is open.
  await expect.poll(() => build(first).catch(() => null), { timeout: 30_000 }).not.toBe(firstBuild);
  await expect.poll(() => build(first).catch(() => null)).toMatch(/\S/);
  const newBuild = await build(first);
  await expect(section(first, 'Uno editado')).toBeVisible();
  expect(await build(second)).toBe(firstBuild);
  await expect(folderDialog.getByPlaceholder('Título de la carpeta')).toHaveValue('A medio escribir');
  // Closed, the second tab reloads onto the second build too.
  await folderDialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect.poll(() => build(second).catch(() => null), { timeout: 30_000 }).toBe(newBuild);
  await expect(section(first, 'Uno editado')).toBeVisible();
  await expect(second.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await expect(first.getByText(UPDATE_MESSAGE)).toHaveCount(0);
  // The edit reached the server.
  const { token } = await login(api, DEMO);
  await expect
    .poll(async () => {
      const answer = await api.get(`/api/visores/${visorId}/get`, { headers: { authorization: `Bearer ${token}` } });
      const visor = (await answer.json()) as { data: { secciones: { title: string }[] } };
      return visor.data.secciones.map((entry) => entry.title);
    })
    .toEqual(['Uno editado', 'Dos']);
});
