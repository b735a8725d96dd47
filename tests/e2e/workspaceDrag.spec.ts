// Drag and drop in the sidebar (issue 6): reorder, into and out of folders, between the
// favourites and the general tree, and with the keyboard. Each on a fresh account.
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { newUser } from './shellHelpers';
import { create, dragRow, expandFolder, favouritesSection, row, treeOrder, workspaceTree } from './workspaceHelpers';

test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ page, request }) => {
  await signIn(page, await newUser(request, 'dnd'));
  await expect(page.getByRole('heading', { name: 'Espacio de trabajo' })).toBeVisible();
  await create(page, 'Carpeta', 'Futuros');
  await create(page, 'Visor', 'Merval');
  await create(page, 'Visor', 'Bonos');
  await expect.poll(() => treeOrder(page)).toEqual(['0:Futuros', '0:Merval', '0:Bonos']);
});

test('reorders at the root and keeps the order after a reload', async ({ page }) => {
  await dragRow(page, 'Bonos', 'Futuros');
  await expect.poll(() => treeOrder(page)).toEqual(['0:Bonos', '0:Futuros', '0:Merval']);
  await page.reload();
  await expect.poll(() => treeOrder(page)).toEqual(['0:Bonos', '0:Futuros', '0:Merval']);
});

test('moves a visor into a folder by dragging it right under the folder, and out again by dragging left', async ({ page }) => {
  await dragRow(page, 'Bonos', 'Merval', 0);
  await expect.poll(() => treeOrder(page)).toEqual(['0:Futuros', '0:Bonos', '0:Merval']);
  // Under Futuros (an open folder after the drop is shown open), one level right: inside it.
  await dragRow(page, 'Bonos', 'Bonos', 24);
  await expect.poll(() => treeOrder(page)).toEqual(['0:Futuros', '1:Bonos', '0:Merval']);
  await page.reload();
  await expandFolder(workspaceTree(page), 'Futuros');
  await expect.poll(() => treeOrder(page)).toEqual(['0:Futuros', '1:Bonos', '0:Merval']);
  await dragRow(page, 'Bonos', 'Bonos', -24);
  await expect.poll(() => treeOrder(page)).toEqual(['0:Futuros', '0:Bonos', '0:Merval']);
});

test('a folder cannot be dropped into itself: its own rows travel with it', async ({ page }) => {
  await create(page, 'Visor', 'Dentro', { inFolder: 'Futuros' });
  await expandFolder(workspaceTree(page), 'Futuros');
  await expect.poll(() => treeOrder(page)).toEqual(['0:Futuros', '1:Dentro', '0:Merval', '0:Bonos']);
  // Lifting Futuros takes Dentro out of the list, so the rows below move up one: the pointer
  // where Merval was is over Bonos. Dragged there and to the right, Futuros lands after Bonos,
  // a visor, at the root — never inside a visor, nor inside itself — with its visor inside.
  await dragRow(page, 'Futuros', 'Merval', 40);
  await expect.poll(() => treeOrder(page)).toEqual(['0:Merval', '0:Bonos', '0:Futuros', '1:Dentro']);
});

test('dropping on Favoritos makes a favourite; dragging it back to the tree removes it', async ({ page }) => {
  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  await row(workspaceTree(page), 'Merval').first().hover();
  const handle = row(workspaceTree(page), 'Merval').first().getByRole('button', { name: 'Mover Merval' });
  const from = (await handle.boundingBox())!;
  await page.mouse.move(from.x + 5, from.y + 5);
  await page.mouse.down();
  await page.mouse.move(from.x + 5, from.y + 15, { steps: 4 });
  // While dragging, the Favoritos drop zone appears above the tree.
  const zone = favouritesSection(page);
  await expect(zone).toBeVisible();
  const box = (await zone.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(favouritesSection(page).getByRole('link', { name: 'Merval' })).toBeVisible();

  const favHandle = favouritesSection(page).getByRole('button', { name: 'Mover Merval' });
  await favouritesSection(page).getByRole('link', { name: 'Merval' }).hover();
  const start = (await favHandle.boundingBox())!;
  const target = (await row(workspaceTree(page), 'Bonos').first().boundingBox())!;
  await page.mouse.move(start.x + 5, start.y + 5);
  await page.mouse.down();
  await page.mouse.move(start.x + 5, start.y + 15, { steps: 4 });
  await page.mouse.move(target.x + 40, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(menu.getByRole('heading', { name: 'Favoritos' })).toHaveCount(0);
});

test('keyboard: Space lifts a row, arrows move it, Space drops it', async ({ page }) => {
  const handle = row(workspaceTree(page), 'Bonos').first().getByRole('button', { name: 'Mover Bonos' });
  // dnd-kit announces each step in its live region («… was moved over droppable area f:…»).
  const announcements = page.locator('[id^="DndLiveRegion"]');
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(announcements).toHaveText(/^Picked up|was moved over droppable area/);
  // An arrow pressed in the instant the lift is still being set up (the rows measured, the
  // sensor's key listener added) moves nothing, as it would for a person, who presses again.
  const arrowUpUntil = async (over: RegExp) => {
    await expect(async () => {
      if (!over.test((await announcements.textContent()) ?? '')) await page.keyboard.press('ArrowUp');
      await expect(announcements).toHaveText(over, { timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
  };
  const dragged = /draggable item (v:\w+)/i.exec((await announcements.textContent()) ?? '')![1]!;
  // Up one: over Merval (or, a press repeated on a slow machine, already the folder); up again:
  // over the folder Futuros.
  await arrowUpUntil(new RegExp(`droppable area (v:(?!${dragged.slice(2)}\\b)|f:)\\w+`));
  await arrowUpUntil(/droppable area f:\w+/);
  await page.keyboard.press('Space');
  await expect.poll(() => treeOrder(page)).toEqual(['0:Bonos', '0:Futuros', '0:Merval']);
});
