// A section type's view is a chunk of its own (issue 21). When that chunk cannot be loaded (the
// network dropped, a deploy removed it), the section says so inside its frame, the rest of the
// visor works, and the chunk is asked for again; the route's error page never shows.
import { expect, test } from '@playwright/test';
import { DEMO, expectHome, signIn } from './helpers';
import { section } from './visorHelpers';
import { expandFolder, row, workspaceTree } from './workspaceHelpers';

test('a section whose view cannot be loaded says so in its frame and loads when asked again; the other sections work', async ({ page }) => {
  let refuse = true;
  await page.route(/\/assets\/FormulaView-[^/]+\.js$/, (route) => (refuse ? route.abort('internetdisconnected') : route.continue()));
  await signIn(page, DEMO);
  await expectHome(page);
  await expandFolder(workspaceTree(page), 'Dólar');
  await row(workspaceTree(page), 'Dólar: futuros y MEP').getByRole('link').click();

  const formulas = section(page, 'Dólares implícitos');
  await expect(formulas.getByRole('alert')).toHaveText(/No se pudo cargar esta sección\./);
  await expect(page.getByRole('heading', { name: 'Algo salió mal' })).toHaveCount(0);
  // The board beside it is live.
  await expect(section(page, 'Futuros de dólar y A3500').locator('[role="row"][data-symbol]').first()).toBeVisible();

  refuse = false;
  await formulas.getByRole('button', { name: 'Reintentar' }).click();
  await expect(formulas.getByRole('alert')).toHaveCount(0);
  await expect(formulas.getByText('Dólar MEP')).toBeVisible();
});
