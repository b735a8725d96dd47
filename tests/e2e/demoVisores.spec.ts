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
