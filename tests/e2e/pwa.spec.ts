// The installable app (issue 21): Chromium finds it installable (CDP's installability errors and
// manifest errors are empty), the service worker controls the page from the first reload on,
// the shell answers navigations with the network off, emoji images are kept on first use,
// nothing of /api is ever in CacheStorage, and the manifest carries the user's favourite
// visores as shortcuts after Inicio (their titles in a cookie, never in a URL). The service worker is allowed here (blocked by default in
// playwright.config.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { newUser } from './shellHelpers';
import { login, seedVisor } from './visorHelpers';

test.use({ serviceWorkers: 'allow' });

/** Resolves when a service worker of the page's registration is active. */
async function workerActive(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller != null);

/** Every request URL kept in any cache of CacheStorage. */
async function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
}

test('Chromium reports the app installable, its manifest without errors', async ({ playwright, baseURL }) => {
  // A test's context is incognito, where Chromium installs nothing ('in-incognito'): a
  // persistent profile of its own, launched as the config launches the browser.
  const profile = mkdtempSync(path.join(tmpdir(), 'visores-pwa-profile-'));
  const context = await playwright.chromium.launchPersistentContext(profile, { ...test.info().project.use.launchOptions, baseURL });
  test.info().setTimeout(60_000);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await installable(page);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

async function installable(page: Page): Promise<void> {
  await page.goto('/auth/signin');
  await workerActive(page);
  const cdp = await page.context().newCDPSession(page);
  await expect
    .poll(async () => {
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      return installabilityErrors.map((error) => error.errorId);
    })
    .toEqual([]);
  const manifest = await cdp.send('Page.getAppManifest');
  expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
  const data = JSON.parse(manifest.data ?? 'null') as Record<string, unknown>;
  expect(data).toMatchObject({ name: 'Visores', short_name: 'Visores', start_url: '/', scope: '/', display: 'standalone' });
  const icons = data.icons as { sizes: string; purpose?: string }[];
  expect(icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  const screenshots = data.screenshots as { form_factor: string }[];
  expect(screenshots.map((shot) => shot.form_factor).sort()).toEqual(['narrow', 'wide']);
  // Every icon and screenshot the manifest names is there, as a PNG of its declared size.
  for (const image of [...(data.icons as { src: string; sizes: string }[]), ...(data.screenshots as { src: string; sizes: string }[])]) {
    const size = await page.evaluate(async (src) => {
      const bitmap = await createImageBitmap(await (await fetch(src)).blob());
      return `${bitmap.width}x${bitmap.height}`;
    }, image.src);
    expect(size, image.src).toBe(image.sizes);
  }
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/icons/apple-touch-icon.png');
}

test('the service worker controls the page after the first reload, and serves the shell offline', async ({ page, context }) => {
  await page.goto('/auth/signin');
  await workerActive(page);
  // No clients.claim(): the first load stays the network's.
  expect(await controlled(page)).toBe(false);
  await page.reload();
  await expect(page.getByLabel('Usuario')).toBeVisible();
  expect(await controlled(page)).toBe(true);

  // Offline, a navigation to any route of the app gets the precached shell, which starts.
  await context.setOffline(true);
  try {
    await page.goto('/auth/signin?sin-red=1');
    await expect(page.getByLabel('Usuario')).toBeVisible();
    expect(await controlled(page)).toBe(true);
  } finally {
    await context.setOffline(false);
  }
});

test('no /api answer is ever cached; emoji images are, on first use', async ({ page, request }) => {
  test.setTimeout(60_000);
  const account = await newUser(request, 'pwa');
  await seedVisor(request, account, 'Visor PWA');
  await page.goto('/auth/signin');
  await workerActive(page);
  await page.reload();
  expect(await controlled(page)).toBe(true);
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page
    .getByRole('link', { name: /Visor PWA/ })
    .first()
    .click();
  await expect(page.getByRole('article', { name: 'Uno', exact: true })).toBeVisible();
  // An emoji image through the controlled page, as the picker or a tree row loads it.
  const status = await page.evaluate(async () => (await fetch('/emoji/apple/64/1f680.png')).status);
  expect(status).toBe(200);
  // An API read through the controlled page too.
  expect(await page.evaluate(async () => (await fetch('/api/health')).status)).toBe(204);

  await expect.poll(() => cachedUrls(page)).toContain('/emoji/apple/64/1f680.png');
  const urls = await cachedUrls(page);
  expect(urls).toContain('/index.html');
  expect(urls.filter((url) => /^\/api(\/|$)/i.test(url))).toEqual([]);
});

test('the manifest carries the favourite visores as shortcuts after Inicio, their titles never in a URL', async ({ page, request }) => {
  const account = await newUser(request, 'pwafav');
  const title = 'Dólar: mis futuros';
  const visorId = await seedVisor(request, account, title);
  await seedVisor(request, account, 'No favorito');
  const { token, user } = await login(request, account);
  const fav = await request.put(`/api/visores/${user._id}/${visorId}/fav`, { headers: { authorization: `Bearer ${token}` } });
  expect(fav.ok(), await fav.text()).toBe(true);
  // Every URL the browser asks for, the service worker's and shared worker's included.
  const urls: string[] = [];
  page.context().on('request', (sent) => urls.push(decodeURIComponent(sent.url())));

  await page.goto('/auth/signin');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  const link = page.locator('link[rel="manifest"]');
  await expect(link).toHaveAttribute('href', /^\/app\.webmanifest\?r=\d+$/);
  await expect(link).toHaveAttribute('crossorigin', 'use-credentials');

  const cdp = await page.context().newCDPSession(page);
  await expect.poll(async () => (await cdp.send('Page.getAppManifest')).url).toMatch(/\/app\.webmanifest\?r=\d+$/);
  const manifest = await cdp.send('Page.getAppManifest');
  expect(manifest.errors).toEqual([]);
  const shortcuts = (JSON.parse(manifest.data ?? 'null') as { shortcuts: { name: string; url: string }[] }).shortcuts;
  expect(shortcuts.map((shortcut) => [shortcut.name, shortcut.url])).toEqual([
    ['Inicio', '/'],
    [title, `/visor/${visorId}/public`],
  ]);
  expect(urls.some((url) => url.includes('/app.webmanifest'))).toBe(true);
  expect(urls.filter((url) => url.includes(title) || url.includes('mis futuros'))).toEqual([]);

  // Signed out: the built manifest again, and the cookie gone.
  await page.getByRole('button', { name: account.username }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(link).toHaveAttribute('href', '/manifest.webmanifest');
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('visores_atajos');
});
