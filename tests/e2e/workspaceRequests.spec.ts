// The workspace's requests as the network log shows them (issue 16, "one round trip per
// workspace write"): signing in reads the workspace once, opening screens reads nothing, and
// each write from the sidebar is one request. Playwright does not see a SharedWorker's
// requests, so these pages run the data worker as a dedicated Worker (the fallback where
// SharedWorker is missing), whose requests it sees.
import { expect, test, type Page } from '@playwright/test';
import { expectHome, signIn } from './helpers';
import { newUser } from './shellHelpers';
import { create, dragRow, rowAction, row, treeOrder, workspaceTree } from './workspaceHelpers';

test.describe.configure({ timeout: 60_000 });

/** Every workspace request of the page (the symbol search, also under /api/visores, left out), as `METHOD path`. */
function recordWorkspaceRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/visores/') && !pathname.startsWith('/api/visores/search')) seen.push(`${request.method()} ${pathname}`);
  });
  return seen;
}

/** The requests made since the last call: once `expected` of them were seen, and the page had a moment more to make any extra one. */
async function since(page: Page, seen: string[], expected: number): Promise<string[]> {
  await expect.poll(() => seen.length).toBeGreaterThanOrEqual(expected);
  await page.waitForTimeout(500);
  // User and visor ids as …: 22 and 32 characters.
  return seen.splice(0).map((request) => request.replace(/[A-Za-z0-9_-]{20,}/g, '…'));
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { SharedWorker?: unknown }).SharedWorker;
  });
});

test('signing in reads the workspace once; opening Inicio, Perfil and the search reads nothing', async ({ page, request }) => {
  const seen = recordWorkspaceRequests(page);
  await signIn(page, await newUser(request, 'rt'));
  await expectHome(page);
  await expect(page.getByRole('heading', { name: 'Espacio de trabajo' })).toBeVisible();
  expect((await since(page, seen, 3)).sort()).toEqual(['GET /api/visores/…', 'GET /api/visores/…/folders', 'GET /api/visores/…/getFavs']);

  await page.getByRole('link', { name: 'Perfil' }).click();
  await expect(page.getByRole('heading', { name: 'Perfil', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Inicio' }).first().click();
  await expectHome(page);
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.getByPlaceholder('Search or hit ESC..').fill('GGAL');
  await page.getByPlaceholder('Search or hit ESC..').press('Enter');
  await expect(page.getByRole('heading', { name: 'Búsqueda', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Inicio' }).first().click();
  await expectHome(page);
  expect(await since(page, seen, 0)).toEqual([]);
});

test('each write from the sidebar is one request', async ({ page, request }) => {
  const seen = recordWorkspaceRequests(page);
  await signIn(page, await newUser(request, 'rt'));
  await expect(page.getByRole('heading', { name: 'Espacio de trabajo' })).toBeVisible();
  await since(page, seen, 3);
  const tree = workspaceTree(page);

  await create(page, 'Carpeta', 'Futuros');
  await expect(row(tree, 'Futuros')).toBeVisible();
  expect(await since(page, seen, 1)).toEqual(['PUT /api/visores/…/folders']);

  await create(page, 'Visor', 'Merval');
  await expect(row(tree, 'Merval')).toBeVisible();
  expect(await since(page, seen, 1)).toEqual(['POST /api/visores/…/new']);

  await rowAction(tree, 'Merval', 'Editar');
  const dialog = page.getByRole('dialog', { name: 'Visor' });
  await dialog.getByPlaceholder('Título del visor').fill('Merval 25');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(row(tree, 'Merval 25')).toBeVisible();
  expect(await since(page, seen, 1)).toEqual(['PUT /api/visores/…']);

  await rowAction(tree, 'Merval 25', 'Agregar a Favoritos');
  await expect(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('heading', { name: 'Favoritos' })).toBeVisible();
  expect(await since(page, seen, 1)).toEqual(['PUT /api/visores/…/…/fav']);

  await dragRow(page, 'Merval 25', 'Futuros');
  await expect.poll(() => treeOrder(page)).toEqual(['0:Merval 25', '0:Futuros']);
  expect(await since(page, seen, 1)).toEqual(['PUT /api/visores/…/folders']);

  await rowAction(tree, 'Merval 25', 'Eliminar');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Si, borrar' }).click();
  await expect(row(tree, 'Merval 25')).toHaveCount(0);
  expect(await since(page, seen, 1)).toEqual(['DELETE /api/visores/…']);
});
