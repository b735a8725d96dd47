// Working with the sidebar's workspace as a person does: the plus menus, the modals, the hover
// menus of the rows.
import { expect, type Locator, type Page } from '@playwright/test';
import { pickEmoji, typeColor } from './pickerHelpers';

export function workspaceTree(page: Page): Locator {
  return page.getByRole('list', { name: 'Espacio de trabajo' });
}

export function favouritesSection(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Menú principal' }).getByRole('region', { name: 'Favoritos' });
}

/** A row of a tree by the folder's or visor's name (the exact text of its link or button). */
export function row(scope: Locator, name: string): Locator {
  return scope.locator('.tree__row').filter({ has: scope.page().locator('.tree__name', { hasText: new RegExp(`^${escape(name)}$`) }) });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function rowAction(scope: Locator, name: string, action: string): Promise<void> {
  const target = row(scope, name).first();
  await target.hover();
  await target.getByRole('button', { name: `Acciones de ${name}` }).click();
  await scope.page().getByRole('menuitem', { name: action, exact: true }).click();
}

/** Opens the Carpeta or Visor modal from the Espacio de trabajo plus menu, or from a folder's. */
export async function openCreate(page: Page, kind: 'Carpeta' | 'Visor', inFolder?: string): Promise<Locator> {
  if (inFolder) {
    const target = row(workspaceTree(page), inFolder).first();
    await target.hover();
    await target.getByRole('button', { name: `Agregar en ${inFolder}` }).click();
  } else {
    await page.getByRole('button', { name: 'Crear en Espacio de trabajo' }).click();
  }
  await page.getByRole('menuitem', { name: kind, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: kind });
  await expect(dialog).toBeVisible();
  return dialog;
}

export async function create(
  page: Page,
  kind: 'Carpeta' | 'Visor',
  title: string,
  options: { emoji?: string; color?: string; inFolder?: string } = {},
): Promise<void> {
  const dialog = await openCreate(page, kind, options.inFolder);
  await dialog.getByPlaceholder(kind === 'Carpeta' ? 'Título de la carpeta' : 'Título del visor').fill(title);
  if (options.emoji) await pickEmoji(dialog, options.emoji);
  if (options.color) await typeColor(dialog, options.color);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
}

export async function expandFolder(scope: Locator, name: string): Promise<void> {
  const button = row(scope, name).first().locator('.tree__folder');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
}

/** Drags a row of the general tree by its handle onto another row, `dx` pixels sideways (into or out of folders). */
export async function dragRow(page: Page, name: string, ontoName: string, dx = 0, below = false): Promise<void> {
  const tree = workspaceTree(page);
  const handle = row(tree, name)
    .first()
    .getByRole('button', { name: `Mover ${name}` });
  const target = row(tree, ontoName).first();
  await row(tree, name).first().hover();
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // Past the 5 px activation distance, then in steps so the sensors follow.
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 8, { steps: 4 });
  const y = below ? to.y + to.height * 0.8 : to.y + to.height / 2;
  await page.mouse.move(from.x + from.width / 2 + dx, y, { steps: 12 });
  await page.mouse.move(from.x + from.width / 2 + dx, y + 1, { steps: 2 });
  await page.mouse.up();
}

/** The names of the general tree's visible rows, in order, each with its depth. */
export async function treeOrder(page: Page): Promise<string[]> {
  return workspaceTree(page)
    .locator(':scope > li')
    .evaluateAll((items) => items.map((item) => `${item.getAttribute('data-depth')}:${item.querySelector('.tree__name')?.textContent ?? ''}`));
}
