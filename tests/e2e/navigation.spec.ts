import { expect, test, type Route } from '@playwright/test';
import { DEMO, expectHome, signIn } from './helpers';

test('each navigation shows the thin progress bar while the token is checked', async ({ page }) => {
  await signIn(page, DEMO);
  await expectHome(page);

  // Hold the token check of the next navigation until the bar has been seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/checkToken', async (route) => {
    await held;
    await route.continue();
  });

  const bar = page.getByRole('progressbar', { name: 'Cargando', includeHidden: true });
  await expect(bar).toHaveAttribute('aria-busy', 'false');
  await page.getByRole('link', { name: 'Perfil' }).click();
  await expect(bar).toHaveAttribute('aria-busy', 'true');
  await expect(bar).toBeVisible();
  await expect(page).not.toHaveURL(/\/config\/profile$/);
  release();
  await expect(page).toHaveURL(/\/config\/profile$/);
  await expect(bar).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('svg.spinner, .spinner')).toHaveCount(0);
});

test('a navigation that starts while the loaders run again (the network back) waits for a token check of its own', async ({ page, context }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  // Every token check from now on is held until the test lets it go.
  const held: Route[] = [];
  await page.route('**/api/checkToken', (route) => void held.push(route));

  // The network goes and comes back: the loaders run again (OfflineBanner), checking the token.
  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: /^Sin conexión desde/ })).toBeVisible();
  await context.setOffline(false);
  await expect.poll(() => held.length).toBe(1);

  // A navigation meanwhile asks for its own check rather than taking the one asked before it.
  const bar = page.getByRole('progressbar', { name: 'Cargando', includeHidden: true });
  await page.getByRole('link', { name: 'Perfil' }).click();
  await expect(bar).toHaveAttribute('aria-busy', 'true');
  await expect.poll(() => held.length).toBe(2);
  await held[0]!.continue();
  await expect(page).not.toHaveURL(/\/config\/profile$/);
  await expect(bar).toHaveAttribute('aria-busy', 'true');
  await held[1]!.continue();
  await expect(page).toHaveURL(/\/config\/profile$/);
  await expect(bar).toHaveAttribute('aria-busy', 'false');
});

test('each navigation scrolls to the top', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await signIn(page, DEMO);
  await expectHome(page);
  await page.evaluate(() => {
    document.getElementById('main-content')!.style.minHeight = '4000px';
    window.scrollTo(0, 2500);
  });
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  await page.getByRole('link', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/config\/profile$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('below 992 px the sidebar is an overlay that a link click closes', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 700 });
  await signIn(page, DEMO);
  await expectHome(page);
  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  await expect(menu).not.toBeInViewport();
  await page.getByRole('button', { name: 'Mostrar u ocultar el menú' }).click();
  await expect(menu).toBeInViewport();
  await menu.getByRole('link', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/config\/profile$/);
  await expect(menu).not.toBeInViewport();

  // The open overlay closes with its own button and with Escape.
  await page.getByRole('button', { name: 'Mostrar u ocultar el menú' }).click();
  await expect(menu).toBeInViewport();
  await menu.getByRole('button', { name: 'Cerrar menú' }).click();
  await expect(menu).not.toBeInViewport();
  await page.getByRole('button', { name: 'Mostrar u ocultar el menú' }).click();
  await expect(menu).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(menu).not.toBeInViewport();
});
