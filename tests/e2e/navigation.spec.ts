import { expect, test } from '@playwright/test';
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
