// The sidebar's workspace (issue 6): folders and visores created, renamed, favourited and
// deleted through the modals and hover menus, as a person does it, each user on a fresh account.
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { newUser } from './shellHelpers';
import { create, expandFolder, favouritesSection, openCreate, row, rowAction, workspaceTree } from './workspaceHelpers';

test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ page, request }) => {
  const account = await newUser(request, 'ws');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Espacio de trabajo' })).toBeVisible();
});

test('creates a folder and a visor at the root and inside the folder, with emoji and colour shown in the tree', async ({ page }) => {
  const tree = workspaceTree(page);
  await create(page, 'Carpeta', 'Futuros', { emoji: '🚀' });
  await expect(row(tree, 'Futuros')).toBeVisible();
  await expect(row(tree, 'Futuros').locator('img.emoji')).toHaveAttribute('alt', '🚀');

  await create(page, 'Visor', 'Dólar MEP', { emoji: '💵', color: 'rgb(34 197 94)' });
  const visorRow = row(tree, 'Dólar MEP');
  await expect(visorRow.locator('img.emoji')).toHaveAttribute('alt', '💵');
  await expect(visorRow.locator('.tree__color')).toHaveCSS('background-color', 'rgb(34, 197, 94)');
  await expect(visorRow.getByRole('link')).toHaveAttribute('href', /\/visor\/[^/]+\/edit$/);

  await create(page, 'Visor', 'Curva DLR', { inFolder: 'Futuros' });
  await expect(row(tree, 'Curva DLR')).toBeHidden(); // the folder is still closed
  await expandFolder(tree, 'Futuros');
  await expect(tree.locator('[data-visor-id][data-depth="1"]').getByText('Curva DLR')).toBeVisible();

  // It is all on the server: a reload shows the same tree.
  await page.reload();
  await expandFolder(workspaceTree(page), 'Futuros');
  await expect(row(workspaceTree(page), 'Curva DLR')).toBeVisible();
  await expect(row(workspaceTree(page), 'Dólar MEP')).toBeVisible();
});

test('renames a folder and a visor through Editar, prefilled', async ({ page }) => {
  const tree = workspaceTree(page);
  await create(page, 'Carpeta', 'Bonos');
  await create(page, 'Visor', 'AL30');

  await rowAction(tree, 'Bonos', 'Editar');
  let dialog = page.getByRole('dialog', { name: 'Carpeta' });
  await expect(dialog.getByPlaceholder('Título de la carpeta')).toHaveValue('Bonos');
  await dialog.getByPlaceholder('Título de la carpeta').fill('Bonos soberanos');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(tree, 'Bonos soberanos')).toBeVisible();

  await rowAction(tree, 'AL30', 'Editar');
  dialog = page.getByRole('dialog', { name: 'Visor' });
  await expect(dialog.getByPlaceholder('Título del visor')).toHaveValue('AL30');
  await expect(dialog.getByRole('textbox', { name: 'Color', exact: true })).toHaveValue('hsl(270 100% 50% / 0.8)');
  await dialog.getByPlaceholder('Título del visor').fill('AL30 / GD30');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(tree, 'AL30 / GD30')).toBeVisible();
  await expect(row(tree, 'AL30')).toHaveCount(0);
});

test('favourites and unfavourites a visor and a folder; the Favoritos heading shows only while there is one', async ({ page }) => {
  const tree = workspaceTree(page);
  await create(page, 'Carpeta', 'Agro');
  await create(page, 'Visor', 'Soja', { inFolder: 'Agro' });
  await create(page, 'Visor', 'Merval');
  await expect(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('heading', { name: 'Favoritos' })).toHaveCount(0);

  await rowAction(tree, 'Merval', 'Agregar a Favoritos');
  const favourites = favouritesSection(page);
  await expect(favourites.getByRole('link', { name: 'Merval' })).toHaveAttribute('href', /\/visor\/[^/]+\/public$/);
  // A favourite visor offers Editar and Eliminar.
  await row(favourites, 'Merval').hover();
  await row(favourites, 'Merval').getByRole('button', { name: 'Acciones de Merval' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Editar', 'Eliminar']);
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Visor' });
  await expect(dialog.getByPlaceholder('Título del visor')).toHaveValue('Merval');
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(dialog).toBeHidden();

  // A folder's favourite applies to everything inside it.
  await rowAction(tree, 'Agro', 'Agregar a Favoritos');
  await expect(row(favourites, 'Agro')).toBeVisible();
  await expect(favourites.getByRole('link', { name: 'Soja' })).toBeVisible();

  await rowAction(tree, 'Agro', 'Remover Favorito');
  await expect(row(favourites, 'Agro')).toHaveCount(0);
  await expect(favourites.getByRole('link', { name: 'Soja' })).toHaveCount(0);
  await rowAction(tree, 'Merval', 'Remover Favorito');
  await expect(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('heading', { name: 'Favoritos' })).toHaveCount(0);
});

test('delete asks first: cancel keeps, confirm deletes the folder and every visor in it', async ({ page }) => {
  const tree = workspaceTree(page);
  await create(page, 'Carpeta', 'Viejos');
  await create(page, 'Visor', 'Viejo 1', { inFolder: 'Viejos' });

  await rowAction(tree, 'Viejos', 'Eliminar');
  let confirm = page.getByRole('alertdialog', { name: '¿Estas seguro?' });
  await expect(confirm).toContainText('¡No podrás revertir esto!');
  // Reversed order: cancel first.
  await expect(confirm.getByRole('button')).toHaveText(['No, cancelar', 'Si, borrar']);
  await confirm.getByRole('button', { name: 'No, cancelar' }).click();
  await expect(confirm).toBeHidden();
  await expect(row(tree, 'Viejos')).toBeVisible();

  // Escape cancels too.
  await rowAction(tree, 'Viejos', 'Eliminar');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog')).toBeHidden();
  await expect(row(tree, 'Viejos')).toBeVisible();

  await rowAction(tree, 'Viejos', 'Eliminar');
  confirm = page.getByRole('alertdialog', { name: '¿Estas seguro?' });
  await confirm.getByRole('button', { name: 'Si, borrar' }).click();
  await expect(row(tree, 'Viejos')).toHaveCount(0);
  // The visor inside is gone from the server too: the home page no longer lists it.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Espacio de trabajo' })).toBeVisible();
  await expect(page.getByText('Viejo 1')).toHaveCount(0);
});

test('deletes a visor only on confirm', async ({ page }) => {
  const tree = workspaceTree(page);
  await create(page, 'Visor', 'Temporal');
  await rowAction(tree, 'Temporal', 'Eliminar');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Si, borrar' }).click();
  await expect(row(tree, 'Temporal')).toHaveCount(0);
});

test('an empty title shows the message, submits nothing, and the message clears on typing', async ({ page }) => {
  const dialog = await openCreate(page, 'Carpeta');
  await dialog.getByPlaceholder('Título de la carpeta').fill('   ');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('El título no puede estar vacío')).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByPlaceholder('Título de la carpeta').pressSequentially('R');
  await expect(dialog.getByText('El título no puede estar vacío')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(dialog).toBeHidden();
  await expect(workspaceTree(page).locator('.tree__row')).toHaveCount(0);
});

test("a server error shows the server's message in red in the modal, which stays open", async ({ page }) => {
  const dialog = await openCreate(page, 'Visor');
  await dialog.getByPlaceholder('Título del visor').fill('x'.repeat(201));
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  const message = dialog.getByRole('alert');
  await expect(message).toContainText('título');
  await expect(message).toHaveCSS('color', 'rgb(248, 113, 113)');
  await expect(dialog).toBeVisible();
  // Fixing the title saves, closes and resets.
  await dialog.getByPlaceholder('Título del visor').fill('Corto');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(workspaceTree(page), 'Corto')).toBeVisible();
  const again = await openCreate(page, 'Visor');
  await expect(again.getByPlaceholder('Título del visor')).toHaveValue('');
});

test('a folder created in one tab appears in another without a reload', async ({ page, context }) => {
  const other = await context.newPage();
  await other.goto('/');
  await expect(other.getByRole('heading', { name: 'Espacio de trabajo' })).toBeVisible();
  await create(page, 'Carpeta', 'Compartida');
  await expect(row(workspaceTree(other), 'Compartida')).toBeVisible();
  await rowAction(workspaceTree(other), 'Compartida', 'Eliminar');
  await other.getByRole('alertdialog').getByRole('button', { name: 'Si, borrar' }).click();
  await expect(row(workspaceTree(page), 'Compartida')).toHaveCount(0);
});

test("a failed folder update shows the server's message in the modal, which stays open", async ({ page }) => {
  const tree = workspaceTree(page);
  await create(page, 'Carpeta', 'Acciones');
  await rowAction(tree, 'Acciones', 'Editar');
  const dialog = page.getByRole('dialog', { name: 'Carpeta' });
  await dialog.getByPlaceholder('Título de la carpeta').fill('x'.repeat(201));
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByRole('alert')).toContainText('200 caracteres');
  await expect(dialog).toBeVisible();
  await expect(row(tree, 'Acciones')).toBeVisible();
});

test('the modals are accessible: labelled by their title, focus kept inside, Escape closes', async ({ page }) => {
  const dialog = await openCreate(page, 'Visor');
  await expect(dialog).toHaveAccessibleName('Visor');
  const title = dialog.getByPlaceholder('Título del visor');
  await expect(title).toBeFocused();
  // Tab and Shift+Tab go round the modal's controls and never reach the page behind it.
  const focusInside = () => dialog.evaluate((element) => element.contains(document.activeElement));
  for (let step = 0; step < 12; step++) {
    await page.keyboard.press('Tab');
    expect(await focusInside()).toBe(true);
  }
  for (let step = 0; step < 12; step++) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside()).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(workspaceTree(page).locator('.tree__row')).toHaveCount(0);
});

test('a spinner shows on a disabled Guardar while the folder is being saved', async ({ page }) => {
  const dialog = await openCreate(page, 'Carpeta');
  await dialog.getByPlaceholder('Título de la carpeta').fill('Con espera');
  // The save goes through the shared data worker, out of reach of page.route: record instead
  // every state the button goes through until the modal closes.
  await dialog.evaluate((element) => {
    const seen: string[] = [];
    (window as unknown as { savingStates: string[] }).savingStates = seen;
    const button = [...element.querySelectorAll('button')].find((candidate) => candidate.textContent?.includes('Guardar'))!;
    new MutationObserver(() => {
      if (button.querySelector('.spinner[role="status"][aria-label="Guardando"]')) seen.push(button.disabled ? 'spinner, disabled' : 'spinner');
    }).observe(button, { childList: true, subtree: true, attributes: true });
  });
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(workspaceTree(page), 'Con espera')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { savingStates: string[] }).savingStates)).toContain('spinner, disabled');
});
