// The demo account's first run (issue 18): signed in, `demo` finds its sample visores in the
// sidebar — the folders Dólar, Bonos and Acciones líderes, each with its visor, and the Dólar
// visor among the favourites — not an empty workspace.
import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './helpers';
import { expandFolder, favouritesSection, row, workspaceTree } from './workspaceHelpers';

test('demo signs in to its sample visores in folders, the Dólar one a favourite', async ({ page }) => {
  await signIn(page, DEMO);
  const tree = workspaceTree(page);
  const visores = { Dólar: 'Dólar: futuros y MEP', Bonos: 'Bonos AL30 y GD30', 'Acciones líderes': 'Panel líder Merval' };
  for (const [folder, visor] of Object.entries(visores)) {
    await expect(row(tree, folder)).toBeVisible();
    await expandFolder(tree, folder);
    await expect(row(tree, visor).getByRole('link')).toHaveAttribute('href', /\/visor\/[^/]+\/edit$/);
  }
  await expect(row(tree, 'Dólar').locator('img.emoji')).toHaveAttribute('alt', '💵');
  await expect(favouritesSection(page).getByText(visores.Dólar)).toBeVisible();
});

test('in a window too narrow for its columns, the Dólar board scrolls inside its section, not the page', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 800 });
  await signIn(page, DEMO);
  await favouritesSection(page).getByText('Dólar: futuros y MEP').click();
  const scroller = page.locator('.vs-table-scroll').first();
  await expect(scroller.locator('[role="row"][data-symbol]').first()).toBeVisible();
  await expect(scroller).toHaveAttribute('data-overflow', 'true');
  // The board's columns are wider than the window: they scroll in the board, the page keeps the window's width.
  expect(await scroller.evaluate((element) => element.scrollWidth)).toBeGreaterThan(1000 - 240);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1000);
});

test('a long visor name in the sidebar ends in an ellipsis; the sidebar never scrolls sideways', async ({ page }) => {
  await signIn(page, DEMO);
  const favourite = favouritesSection(page).getByText('Dólar: futuros y MEP');
  await expect(favourite).toBeVisible();
  const sidebar = page.getByRole('navigation', { name: 'Menú principal' });
  expect(await sidebar.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  expect(await favourite.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  expect(await favourite.evaluate((element) => getComputedStyle(element).textOverflow)).toBe('ellipsis');
});
