// Logout works offline: the user's data leaves the browser at once (the token, the workspace
// and quotes in Dexie, the cached catalogue and charts), the app goes to sign-in and opens there
// again after a reload with the network off, and the logout reaches the server when the network
// is back (the old token is then refused). The service worker is allowed: the reload offline
// comes from it. setOffline cuts the page (whose fetch sends the logout), not the SharedWorker.
import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectHome, signIn, storedToken } from './helpers';
import { section } from './visorHelpers';
import { expandFolder, row, workspaceTree } from './workspaceHelpers';

test.use({ serviceWorkers: 'allow' });

const VISOR = 'Dólar: futuros y MEP';
const BOARD = 'Futuros de dólar y A3500';

/** How many records each store of the app's IndexedDB holds, read with IndexedDB itself. */
function storeCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open('visores');
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    const counts: Record<string, number> = {};
    for (const name of Array.from(db.objectStoreNames)) {
      counts[name] = await new Promise<number>((resolve, reject) => {
        const counting = db.transaction(name).objectStore(name).count();
        counting.onsuccess = () => resolve(counting.result);
        counting.onerror = () => reject(counting.error);
      });
    }
    db.close();
    return counts;
  });
}

const localKeys = (page: Page) => page.evaluate(() => Object.keys(localStorage).sort());
const pendingLogouts = (page: Page) => page.evaluate(() => localStorage.getItem('visores.pendingLogouts'));

test('a logout offline wipes the browser at once, opens on sign-in offline, and reaches the server once back', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO);
  await expectHome(page);
  await expandFolder(workspaceTree(page), 'Dólar');
  await row(workspaceTree(page), VISOR).getByRole('link').click();
  await expect(page.getByRole('heading', { name: VISOR, level: 1 })).toBeVisible();
  // The board's quotes reach the worker's cache; the service worker controls the page after a reload.
  await expect(section(page, BOARD).locator('[role="row"][data-symbol]').first()).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: VISOR, level: 1 })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller != null)).toBe(true);

  const token = await storedToken(page);
  expect(token).toBeTruthy();
  // The browser holds the user's workspace and what they watched.
  await expect
    .poll(async () => storeCounts(page))
    .toMatchObject({
      folderTrees: 1,
      favourites: 1,
      visores: expect.any(Number),
      quotes: expect.any(Number),
    });
  const before = await storeCounts(page);
  expect(before.visores).toBeGreaterThan(0);
  await expect.poll(async () => (await storeCounts(page)).quotes).toBeGreaterThan(0);

  await context.setOffline(true);
  await page.getByRole('button', { name: /demo/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await storedToken(page)).toBeNull();
  // Nothing of the user is left but the logout the server has yet to hear of.
  const empty = { folderTrees: 0, favourites: 0, visores: 0, recentVisores: 0, visorDrafts: 0, outbox: 0, quotes: 0, chartHistory: 0, catalogue: 0 };
  await expect.poll(async () => storeCounts(page)).toMatchObject(empty);
  const kept = await localKeys(page);
  expect(kept).not.toContain('visores.token');
  expect(kept).not.toContain('visores.user');
  expect(kept).not.toContain('visores.brokerSessions');
  expect(JSON.parse((await pendingLogouts(page))!)).toEqual([{ token, log: 'Cierre de sesión de demo desde el menú de usuario' }]);
  // The server has not heard yet: the token still works there.
  expect((await request.post('/api/checkToken', { data: { token } })).status()).toBe(200);

  // Reopened with the network still off (the shell from the service worker): sign-in, nothing of the user.
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByLabel('Usuario')).toBeVisible();
  const another = await context.newPage();
  await another.goto('/');
  await expect(another).toHaveURL(/\/auth\/signin$/);
  await expect(another.getByText(VISOR)).toHaveCount(0);
  expect(await storeCounts(another)).toMatchObject(empty);
  await another.close();

  // The network back: the logout reaches the server with the old token, which no longer works.
  await context.setOffline(false);
  await expect.poll(async () => (await request.post('/api/checkToken', { data: { token } })).status(), { timeout: 20_000 }).toBe(401);
  await expect.poll(async () => pendingLogouts(page)).toBeNull();
});
