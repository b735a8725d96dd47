import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, DEMO, expectHome, signIn } from './helpers';
import { htmlData, newUser, seedVisorInFolder } from './shellHelpers';

test('dark mode is the default; colour mode and theme are kept after a reload', async ({ page }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  expect(await htmlData(page, 'theme')).toBe('dark');

  await page.getByRole('button', { name: 'Apariencia' }).click();
  const panel = page.getByRole('dialog', { name: 'Apariencia' });
  // The sidebar and header style choices show only when dark mode is off.
  await expect(panel.getByRole('radiogroup', { name: 'Estilo de la barra lateral' })).toHaveCount(0);
  await panel.getByText('Claro', { exact: true }).click();
  await panel.getByText('amethyst').click();
  await panel.getByRole('radiogroup', { name: 'Estilo de la barra lateral' }).getByText('Claro').click();
  await panel.getByRole('radiogroup', { name: 'Estilo del encabezado' }).getByText('Oscuro').click();
  expect(await htmlData(page, 'theme')).toBe('light');

  await page.reload();
  await expectHome(page);
  expect(await htmlData(page, 'theme')).toBe('light');
  expect(await htmlData(page, 'color-theme')).toBe('amethyst');
  expect(await htmlData(page, 'sidebar-style')).toBe('light');
  expect(await htmlData(page, 'header-style')).toBe('dark');
  expect(await page.evaluate(() => [localStorage.getItem('darkMode'), localStorage.getItem('colorTheme')])).toEqual(['light', 'amethyst']);
  // Applied before the app's script ran: the page's own HTML has it, no flash.
  await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(243, 244, 247)');
});

test('system colour mode follows the emulated prefers-color-scheme live', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page, DEMO);
  await expectHome(page);
  await page.getByRole('button', { name: 'Apariencia' }).click();
  await page.getByRole('dialog', { name: 'Apariencia' }).getByText('Sistema', { exact: true }).click();
  await expect.poll(() => htmlData(page, 'theme')).toBe('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => htmlData(page, 'theme')).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => htmlData(page, 'theme')).toBe('light');
});

test('admin entries show only to the admin, Inicio only to others', async ({ page }) => {
  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  await signIn(page, DEMO);
  await expectHome(page);
  await expect(menu.getByRole('link', { name: 'Inicio' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Perfil' })).toBeVisible();
  for (const name of ['Admin', 'Data center TV', 'Data center ROFEX', 'Logs de operadores', 'Posiciones', 'Usuarios']) {
    await expect(menu.getByRole('link', { name })).toHaveCount(0);
  }

  await page.getByRole('button', { name: DEMO.username }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await signIn(page, ADMIN);
  await expect(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Admin' })).toBeVisible();
  const labels = await menu.locator('.nav-main__link > span:not(.nav-main__caret):not(.nav-main__badge)').allTextContents();
  expect(labels).toEqual(['Admin', 'Data center TV', 'Data center ROFEX', 'Logs de operadores', 'Posiciones', 'Usuarios', 'Configuracion', 'Perfil']);
});

test('the search overlay closes with Escape and with its button, and submitting goes to the results', async ({ page }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  const input = page.getByPlaceholder('Search or hit ESC..');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(input).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(input).toHaveCount(0);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByRole('button', { name: 'Cerrar búsqueda' }).click();
  await expect(input).toHaveCount(0);

  await page.getByRole('button', { name: 'Buscar' }).click();
  await input.fill('GGAL');
  await input.press('Enter');
  await expect(page).toHaveURL(/\/backend\/pages\/generic\/search\?GGAL$/);
  await expect(page.getByRole('heading', { name: 'Búsqueda', level: 1 })).toBeVisible();
  await expect(page.getByText('GGAL/DIC26', { exact: true })).toBeVisible();
});

test('logout from the user dropdown goes to sign-in', async ({ page }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  await page.getByRole('button', { name: DEMO.username }).click();
  const dropdown = page.getByRole('menu');
  await expect(dropdown.getByRole('menuitem', { name: 'Perfil' })).toBeVisible();
  await dropdown.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/signin/);
});

/**
 * Closes the toast saying `text`, as a person does before reaching the user menu under it (the
 * spec puts toasts top right, over the header; a pointer resting on a toast pauses it).
 */
async function closeToast(page: Page, text: string) {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: text });
  await toast.getByRole('button', { name: /close/i }).click();
  await expect(toast).toHaveCount(0);
}

test('profile: names are saved and the password changes, with the server errors shown', async ({ page, request }) => {
  test.slow(); // three password hashes on a shared 2-core machine
  const account = await newUser(request, 'perfil');
  await signIn(page, account);
  await expectHome(page);
  await page.getByRole('button', { name: account.username }).click();
  await page.getByRole('menuitem', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/config\/profile$/);

  await page.getByLabel('Nombre').fill('Lucía');
  await page.getByLabel('Apellido').fill('Gómez');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Perfil actualizado')).toBeVisible();
  await closeToast(page, 'Perfil actualizado');
  await page.getByRole('button', { name: account.username }).click();
  await expect(page.getByRole('menu').getByText('Lucía Gómez')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByLabel('Contraseña actual').fill('equivocada');
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('otra-clave-22');
  await page.getByLabel('Repetir la nueva contraseña').fill('otra-clave-22');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByRole('alert')).toHaveText('La contraseña actual no es correcta');

  await page.getByLabel('Contraseña actual').fill(account.password);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('corta');
  await page.getByLabel('Repetir la nueva contraseña').fill('corta');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByRole('alert')).toHaveText('La contraseña debe tener al menos 8 caracteres');

  await page.getByLabel('Nueva contraseña', { exact: true }).fill('otra-clave-22');
  await page.getByLabel('Repetir la nueva contraseña').fill('otra-clave-23');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByRole('alert')).toHaveText('Las contraseñas no coinciden');

  await page.getByLabel('Repetir la nueva contraseña').fill('otra-clave-22');
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page.getByText('Contraseña cambiada')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await closeToast(page, 'Contraseña cambiada');

  // The new password signs in; the names were kept.
  await page.getByRole('button', { name: account.username }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await signIn(page, { username: account.username, password: 'otra-clave-22' });
  await expectHome(page);
  await expect(page.getByText('Hola, Lucía.')).toBeVisible();
});

test('home: the empty state calls to create the first visor; a visor shows as a card and in the search with its folder', async ({ page, request }) => {
  const account = await newUser(request, 'inicio');
  await signIn(page, account);
  await expectHome(page);
  await expect(page.getByRole('heading', { name: 'Todavía no tiene visores' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Crear mi primer visor' })).toBeVisible();

  await seedVisorInFolder(request, account, 'Cauciones diarias', 'Renta fija');
  await page.reload();
  await expectHome(page);
  const card = page.getByRole('region', { name: 'Recientes' }).getByRole('link', { name: /Cauciones diarias/ });
  await expect(card).toBeVisible();
  // The visor's emoji as the picker shows it, our own image (no tofu where fonts lack it).
  await expect(card.locator('img.emoji')).toHaveAttribute('alt', '📈');
  await expect(page.getByRole('button', { name: 'Crear mi primer visor' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByPlaceholder('Search or hit ESC..').fill('cauciones');
  await page.keyboard.press('Enter');
  const visores = page.locator('.card', { has: page.getByRole('heading', { name: 'Visores' }) });
  await expect(visores.getByRole('link', { name: /Cauciones diarias/ })).toBeVisible();
  await expect(visores.getByText('Renta fija', { exact: true })).toBeVisible();
  await expect(visores.getByRole('link', { name: /Cauciones diarias/ }).locator('img.emoji')).toHaveAttribute('alt', '📈');

  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByPlaceholder('Search or hit ESC..').fill('renta');
  await page.keyboard.press('Enter');
  const folders = page.locator('.card', { has: page.getByRole('heading', { name: 'Carpetas' }) });
  await expect(folders.getByText('Renta fija')).toBeVisible();
});

test('below 992 px the sidebar is an overlay that a link click closes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, DEMO);
  await expectHome(page);
  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  await expect(menu).not.toBeInViewport();
  await page.getByRole('button', { name: 'Mostrar u ocultar el menú' }).click();
  await expect(menu).toBeInViewport();
  await menu.getByRole('link', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/config\/profile$/);
  await expect(menu).not.toBeInViewport();
});

test('a window resize pauses the layout transitions, which come back after 500 ms', async ({ page }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  const sidebarTransition = () => page.evaluate(() => getComputedStyle(document.querySelector('nav.sidebar')!).transitionDuration);
  expect(await sidebarTransition()).not.toMatch(/^0s(, 0s)*$/);
  // The resize event and the style it leaves, read in one go (the pause is short).
  const during = await page.evaluate(() => {
    window.dispatchEvent(new Event('resize'));
    return getComputedStyle(document.querySelector('nav.sidebar')!).transitionDuration;
  });
  expect(during).toMatch(/^0s(, 0s)*$/);
  await expect.poll(sidebarTransition).not.toMatch(/^0s(, 0s)*$/);
});

test('horizontal menu above 991 px: the menu runs along the top and a sub-menu opens on hover only', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, DEMO);
  await expectHome(page);
  await page.getByRole('button', { name: 'Apariencia' }).click();
  await page.getByRole('dialog', { name: 'Apariencia' }).getByLabel('Menú horizontal (escritorio)').check();
  await page.keyboard.press('Escape');
  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  // The layout changes on the next render, and the sidebar's size is animated: read it once it has settled.
  await expect
    .poll(async () => {
      const box = (await menu.boundingBox())!;
      return { wide: box.width > 1000, low: box.height < 100 };
    })
    .toEqual({ wide: true, low: true });
  const perfil = menu.getByRole('link', { name: 'Perfil' });
  await expect(perfil).toBeHidden();
  await menu.getByRole('button', { name: 'Configuracion' }).hover();
  await expect(perfil).toBeVisible();
  await page.mouse.move(640, 600);
  await expect(perfil).toBeHidden();
  // Below 992 px the option does not apply: the sidebar is the overlay again.
  await page.setViewportSize({ width: 800, height: 800 });
  await expect(menu).not.toBeInViewport();
});

test('toasts: top right, 20 px from the edges, above the page, dismissible', async ({ page }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  await page.goto('/config/profile');
  await page.getByRole('button', { name: 'Guardar' }).click(); // the same names again
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Perfil actualizado' });
  await expect(toast).toBeVisible();
  const toaster = page.locator('[data-sonner-toaster]');
  await expect(toaster).toHaveAttribute('data-x-position', 'right');
  await expect(toaster).toHaveAttribute('data-y-position', 'top');
  await expect(toaster).toHaveCSS('z-index', '1031');
  const viewport = page.viewportSize()!;
  await expect
    .poll(async () => {
      const box = (await toast.boundingBox())!;
      return [Math.round(box.y), Math.round(viewport.width - box.x - box.width)];
    })
    .toEqual([20, 20]);
  await toast.getByRole('button', { name: /close/i }).click();
  await expect(toast).toHaveCount(0);
});

test('footer and layout options: version and copyright, mini sidebar, sidebar on the right, RTL, boxed content', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, DEMO);
  await expectHome(page);
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  await expect(page.locator('footer')).toContainText(`Visores ${version}`);
  await expect(page.locator('footer')).toContainText(`© ${new Date().getFullYear()} Visores`);

  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  const width = async () => (await menu.boundingBox())!.width;
  const wide = await width();
  await page.getByRole('button', { name: 'Barra lateral mini' }).click();
  await page.mouse.move(800, 400); // away from the sidebar, which widens on hover
  await expect.poll(width).toBe(64);
  await page.getByRole('button', { name: 'Barra lateral mini' }).click();
  await expect.poll(width).toBe(wide);

  await page.getByRole('button', { name: 'Apariencia' }).click();
  const panel = page.getByRole('dialog', { name: 'Apariencia' });
  await panel.getByLabel('Barra lateral a la derecha').check();
  await expect.poll(async () => Math.round((await menu.boundingBox())!.x + wide)).toBe(1280);
  await panel.getByLabel('Barra lateral a la derecha').uncheck();
  await panel.getByLabel('De derecha a izquierda (RTL)').check();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await panel.getByLabel('De derecha a izquierda (RTL)').uncheck();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await panel.getByRole('radiogroup', { name: 'Ancho del contenido' }).getByText('En Caja').click();
  await expect(page.locator('.backend-content__inner')).toHaveCSS('max-width', '1200px');
});

/** The title of a control that needs the server, offline (src/data/offline.ts's NEEDS_SERVER_REASON). */
const NEEDS_SERVER_REASON = 'Sin conexión: esta acción necesita el servidor';
const buenosAiresTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Argentina/Buenos_Aires', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

test.describe('with the browser’s clock in Tokyo, 12 hours ahead of Buenos Aires', () => {
  test.use({ timezoneId: 'Asia/Tokyo' });

  // The tab's view of the network is enough here (issue 21): context.setOffline turns
  // navigator.onLine off in the page, which the app's connection state (data/offline.ts) takes
  // as offline; offline.spec.ts cuts the data worker's network too.
  test('offline, the profile’s forms are off saying why, and the banner says since when in market time, as the quotes', async ({ page, context }) => {
    await signIn(page, DEMO);
    await expectHome(page);
    await page.getByRole('link', { name: 'Perfil' }).click();
    await expect(page.getByRole('heading', { name: 'Perfil', level: 1 })).toBeVisible();
    const buttons = ['Guardar', 'Cambiar contraseña'].map((name) => page.getByRole('button', { name, exact: true }));
    for (const button of buttons) await expect(button).toBeEnabled();

    await context.setOffline(true);
    const banner = page.getByRole('status').filter({ hasText: /^Sin conexión desde/ });
    await expect(banner).toBeVisible();
    const since = Number(await banner.getAttribute('data-since'));
    // Buenos Aires' HH:MM of that instant, not the browser's.
    expect(await page.evaluate((at) => new Date(at).getHours(), since)).not.toBe(Number(buenosAiresTime.format(since).slice(0, 2)));
    await expect(banner).toHaveText(`Sin conexión desde ${buenosAiresTime.format(since)}`);
    for (const button of buttons) {
      await expect(button).toBeDisabled();
      await expect(button).toHaveAttribute('title', NEEDS_SERVER_REASON);
    }

    await context.setOffline(false);
    await expect(banner).toBeHidden();
    for (const button of buttons) await expect(button).toBeEnabled();
  });
});
