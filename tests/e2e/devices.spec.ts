// One workspace on every device: two browser contexts (two devices: each its own worker and
// cache) signed in as the same user. What one changes (create, rename, move, favourite, a
// section, Público, delete) shows on the other without a reload, within 2 s of the change's
// answer (the bound this test holds; bench:sync measures the p95).
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { newUser, type Account } from './shellHelpers';
import { expectSaved, renameSection, section } from './visorHelpers';
import { create, dragRow, favouritesSection, row, rowAction, treeOrder, workspaceTree } from './workspaceHelpers';

test.describe.configure({ timeout: 90_000 });

/** How soon the other device shows a change, from the moment the writer's screen showed it saved. */
const PUSHED_WITHIN_MS = 2_000;

async function device(browser: Browser, account: Account): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  return page;
}

test('each change on one device shows on the other, live, without a reload', async ({ browser, request }) => {
  const account = await newUser(request, 'dev');
  const desk = await device(browser, account);
  const phone = await device(browser, account);
  try {
    const deskTree = workspaceTree(desk);
    const phoneTree = workspaceTree(phone);
    // Nothing on the phone is reloaded: a navigation would read everything again anyway.
    let phoneLoads = 0;
    phone.on('load', () => (phoneLoads += 1));

    await create(desk, 'Visor', 'Dólar MEP');
    await expect(row(phoneTree, 'Dólar MEP')).toBeVisible({ timeout: PUSHED_WITHIN_MS });

    await rowAction(deskTree, 'Dólar MEP', 'Editar');
    const dialog = desk.getByRole('dialog', { name: 'Visor' });
    await dialog.getByPlaceholder('Título del visor').fill('Dólar MEP y CCL');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(phoneTree, 'Dólar MEP y CCL')).toBeVisible({ timeout: PUSHED_WITHIN_MS });
    await expect(row(phoneTree, 'Dólar MEP')).toHaveCount(0);

    // A move: a folder, dragged above the visor.
    await create(desk, 'Carpeta', 'Cambio');
    await expect(row(phoneTree, 'Cambio')).toBeVisible({ timeout: PUSHED_WITHIN_MS });
    await dragRow(desk, 'Cambio', 'Dólar MEP y CCL');
    await expect.poll(() => treeOrder(desk)).toEqual(['0:Cambio', '0:Dólar MEP y CCL']);
    await expect.poll(() => treeOrder(phone), { timeout: PUSHED_WITHIN_MS }).toEqual(['0:Cambio', '0:Dólar MEP y CCL']);

    await rowAction(deskTree, 'Dólar MEP y CCL', 'Agregar a Favoritos');
    await expect(favouritesSection(desk).getByRole('link', { name: 'Dólar MEP y CCL' })).toBeVisible();
    await expect(favouritesSection(phone).getByRole('link', { name: 'Dólar MEP y CCL' })).toBeVisible({ timeout: PUSHED_WITHIN_MS });

    // Both open the visor; a section added and renamed on the desk shows on the phone's open visor.
    for (const page of [desk, phone]) {
      await row(workspaceTree(page), 'Dólar MEP y CCL').first().getByRole('link').click();
      await expect(page.getByRole('heading', { name: 'Dólar MEP y CCL', level: 1 })).toBeVisible();
    }
    await desk.getByRole('button', { name: 'Agregar sección' }).click();
    await desk.getByRole('menuitem', { name: 'Fórmulas' }).click();
    await renameSection(desk, 'Fórmulas', 'Brecha');
    await expectSaved(desk);
    await expect(section(phone, 'Brecha')).toBeVisible({ timeout: PUSHED_WITHIN_MS });

    const deskPublico = desk.getByRole('switch', { name: 'Público' });
    await deskPublico.click();
    await expect(deskPublico).toBeChecked();
    await expect(phone.getByRole('switch', { name: 'Público' })).toBeChecked({ timeout: PUSHED_WITHIN_MS });

    // Deleted on the desk: gone from the phone's tree and favourites.
    await rowAction(deskTree, 'Dólar MEP y CCL', 'Eliminar');
    await desk.getByRole('alertdialog').getByRole('button', { name: 'Si, borrar' }).click();
    await expect(row(deskTree, 'Dólar MEP y CCL')).toHaveCount(0);
    await expect(favouritesSection(phone).getByRole('link', { name: 'Dólar MEP y CCL' })).toHaveCount(0, { timeout: PUSHED_WITHIN_MS });
    await expect(row(phoneTree, 'Dólar MEP y CCL')).toHaveCount(0);
    expect(phoneLoads).toBe(0);
  } finally {
    await desk.context().close();
    await phone.context().close();
  }
});

test('a reload while the server answers its token check with a failure (a restart, a fault) stays signed in; its return changes nothing', async ({
  browser,
  request,
}) => {
  const account = await newUser(request, 'dev');
  // Service workers off: the token check is the page's own request, which the route below answers.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await signIn(page, account);
    await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
    for (const status of [503, 500, 429]) {
      await page.route('**/api/checkToken', (route) =>
        route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ status: 'error', message: 'El servidor se está reiniciando' }) }),
      );
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
      await page.unroute('**/api/checkToken');
      // The server back: the same session, confirmed by it.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
      await expect(page).not.toHaveURL(/\/auth\/signin/);
    }
    // A 401 from the server is the one answer that ends it.
    await page.route('**/api/checkToken', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ status: 'error', message: 'Token inválido' }) }),
    );
    await page.reload();
    await expect(page).toHaveURL(/\/auth\/signin/);
  } finally {
    await context.close();
  }
});
