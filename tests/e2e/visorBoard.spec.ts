// The visor's first proof in one go (issue 18), as a person does it, on the real visor screen:
// create a visor, add a quote board, add three symbols and a formula, see live numbers change,
// reorder rows, reload and find the board as left. Its own server with a fast simulator, so a
// price moves while the test watches.
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';
import { expectSaved, moveRowDownByKeyboard, section } from './visorHelpers';
import { create, row, workspaceTree } from './workspaceHelpers';

let server: OwnServer;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  server = await startOwnServer({ SIM_TICKS_PER_SECOND: '3000' });
});

test.afterAll(async () => {
  await server?.stop();
});

/** The symbols and formulas of the board, top to bottom, as the rows name them. */
const order = (page: Page) =>
  section(page, 'Cotizaciones')
    .locator('[role="row"][data-symbol], [role="row"][data-formula]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-symbol') ?? `ƒ ${row.getAttribute('data-formula')}`));

test('a new visor gets a quote board with three symbols and a formula, live, reordered, as left after a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, DEMO, `${server.url}/auth/signin`);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();

  await create(page, 'Visor', 'Mi panel');
  await row(workspaceTree(page), 'Mi panel').first().getByRole('link').click();
  await expect(page).toHaveURL(/\/visor\/[^/]+\/edit$/);
  await expect(page.getByRole('heading', { name: 'Mi panel', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: 'Cotizaciones' }).click();
  const board = section(page, 'Cotizaciones');
  await expect(board).toBeVisible();
  // A new section opens its settings; closed here to fill the board.
  await board.getByRole('button', { name: 'Cerrar' }).click();

  await board.getByRole('button', { name: 'Agregar símbolo' }).click();
  const search = board.getByRole('searchbox');
  for (const ticker of ['AL30', 'GGAL', 'DLR/DIC26']) {
    await search.fill(ticker);
    await search.press('Enter');
  }
  await expect.poll(() => order(page)).toEqual(['MERV - XMEV - AL30 - 24hs', 'MERV - XMEV - GGAL - 24hs', 'DLR/DIC26']);

  await board.getByRole('button', { name: 'Agregar fórmula' }).click();
  await board.getByLabel('Nombre').fill('MEP');
  await board.getByLabel('Fórmula').fill('BYMA:AL30 / BYMA:AL30D');
  await board.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expect.poll(() => order(page)).toEqual(['MERV - XMEV - AL30 - 24hs', 'MERV - XMEV - GGAL - 24hs', 'DLR/DIC26', 'ƒ MEP']);
  await expect(board.locator('[role="row"][data-formula="MEP"] [data-field="last"]')).toHaveText(/^\d{1,3}(\.\d{3})*,\d+$/);

  // Live: the book or the last trade moves while we watch (the simulated tape can leave the
  // last price flat for longer than a test waits; the book moves every few seconds).
  const dlr = board.locator('[role="row"][data-symbol="DLR/DIC26"]');
  await expect(dlr).toHaveAttribute('data-stale', 'false');
  const last = dlr.locator('[data-field="last"]');
  await expect(last).toHaveText(/^\d[\d.]*(,\d+)?$/);
  const prices = async () => (await dlr.locator('[data-field="bid"], [data-field="offer"], [data-field="last"]').allTextContents()).join(' ');
  const seen = await prices();
  await expect.poll(prices, { timeout: 20_000 }).not.toBe(seen);

  // Reorder by keyboard: the first row goes down one place.
  await moveRowDownByKeyboard(page, board, 'AL30 24hs', 4);
  const reordered = ['MERV - XMEV - GGAL - 24hs', 'MERV - XMEV - AL30 - 24hs', 'DLR/DIC26', 'ƒ MEP'];
  await expect.poll(() => order(page)).toEqual(reordered);
  await expectSaved(page);

  await page.reload();
  await expect(section(page, 'Cotizaciones')).toBeVisible();
  await expect.poll(() => order(page)).toEqual(reordered);
  await expect(section(page, 'Cotizaciones').locator('[role="row"][data-symbol="DLR/DIC26"]')).toHaveAttribute('data-stale', 'false');
});
