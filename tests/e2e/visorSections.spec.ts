// The visor's two section types (issue 18) as a person uses them, on /test?secciones until the
// visor screen draws them: a quote board filled by search (keyboard) and a formula, live
// numbers, an invalid formula explained in place, rows reordered by keyboard and removed from
// their menu, a header sort, a chosen column; formula cards from the presets with live values,
// a symbol the catalogue lacks refused in place; and both read-only without their controls.
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';
import { moveRowDownByKeyboard } from './visorHelpers';

let server: OwnServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startOwnServer({ SIM_TICKS_PER_SECOND: '3000' });
});

test.afterAll(async () => {
  await server?.stop();
});

async function openSections(page: Page): Promise<void> {
  await signIn(page, DEMO, `${server.url}/auth/signin`);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`${server.url}/test?secciones`);
  await expect(page.getByRole('heading', { name: 'Test', level: 1 })).toBeVisible();
}

const board = (page: Page) => page.getByRole('region', { name: 'Cotizaciones' });
const cards = (page: Page) => page.getByRole('region', { name: 'Fórmulas' });
const boardRow = (page: Page, name: string) =>
  board(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name }) });
const rowNames = (page: Page) => board(page).locator('[role="rowgroup"].vs-table__body .vs-row__label').allTextContents();

test('a quote board: symbols found as typed, a formula, live numbers, reorder, remove, sort and columns', async ({ page }) => {
  test.setTimeout(90_000);
  await openSections(page);
  const section = board(page);

  // A ticker typed alone: Enter takes its best match (the 24hs line), shown as a trader reads it.
  await section.getByRole('button', { name: 'Agregar símbolo' }).click();
  const search = section.getByRole('searchbox');
  await search.fill('AL30');
  await search.press('Enter');
  await expect(boardRow(page, 'AL30 24hs')).toBeVisible();
  await expect(section.getByRole('rowheader', { name: 'AL30 24hs' }).locator('[title]').first()).toHaveAttribute('title', 'MERV - XMEV - AL30 - 24hs');
  // The hits by keyboard: down from the text to the first hit, Enter picks it.
  await search.fill('GGAL');
  await expect(section.getByRole('list', { name: 'Resultados de la búsqueda' }).getByRole('button').first()).toBeVisible();
  await search.press('ArrowDown');
  await expect(section.getByRole('list', { name: 'Resultados de la búsqueda' }).getByRole('button').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(section.locator('[role="row"][data-symbol^="MERV - XMEV - GGAL"]')).toHaveCount(1);

  // A formula: what is wrong is said in place; a correct one becomes a row with a value.
  await section.getByRole('button', { name: 'Agregar fórmula' }).click();
  await section.getByLabel('Nombre').fill('MEP');
  await section.getByLabel('Fórmula').fill('BYMA:AL30 / AL30D');
  await section.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expect(section.getByRole('alert')).toHaveText('Falta el mercado de «AL30D»: escriba MERCADO:TICKER (BYMA:AL30, ROFEX:DLR/DIC26) (posición 13)');
  await section.getByLabel('Fórmula').fill('BYMA:AL30 / BYMA:AL30D');
  await section.getByRole('button', { name: 'Agregar', exact: true }).click();
  const mep = section.locator('[role="row"][data-formula="MEP"]');
  await expect(mep.locator('[data-field="last"]')).toHaveText(/^\d{1,3}(\.\d{3})*,\d{4}$/);
  // The form stays open for another formula; closed, the board is back where the drags below reach it.
  await section.getByRole('button', { name: 'Cancelar' }).click();

  // Live: the row is not stale and its prices move while we watch (the book's or the last
  // trade's: the book can move for many seconds between two trades, seen once on CI).
  const al30 = section.locator('[role="row"][data-symbol="MERV - XMEV - AL30 - 24hs"]');
  await expect(al30).toHaveAttribute('data-stale', 'false');
  const last = al30.locator('[data-field="last"]');
  await expect(last).toHaveText(/^\d[\d.]*(,\d+)?$/);
  const prices = () =>
    Promise.all(['bid', 'offer', 'last'].map((field) => al30.locator(`[data-field="${field}"]`).textContent())).then((texts) => texts.join(' '));
  const seen = await prices();
  await expect.poll(prices, { timeout: 20_000 }).not.toBe(seen);
  await expect(al30.locator('[data-field="change_pct"]')).toHaveAttribute('data-sign', /^-?[01]$/);

  // Reorder by keyboard: the first row moves down one place.
  expect(await rowNames(page)).toEqual(['AL30 24hs', 'GGAL 24hs', 'ƒ MEP']);
  await moveRowDownByKeyboard(page, section, 'AL30 24hs', 3);
  await expect.poll(() => rowNames(page)).toEqual(['GGAL 24hs', 'AL30 24hs', 'ƒ MEP']);

  // And by the pointer: the formula row dragged by its handle to the top.
  const handle = section.getByRole('button', { name: 'Mover MEP' });
  const from = (await handle.boundingBox())!;
  const top = (await section.getByRole('button', { name: 'Mover GGAL 24hs' }).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(top.x + top.width / 2, top.y + 2, { steps: 10 });
  await page.mouse.up();
  await expect.poll(() => rowNames(page)).toEqual(['ƒ MEP', 'GGAL 24hs', 'AL30 24hs']);

  // Remove from the row menu.
  await section.getByRole('button', { name: 'Acciones de GGAL 24hs' }).click();
  await page.getByRole('menuitem', { name: 'Quitar' }).click();
  await expect.poll(() => rowNames(page)).toEqual(['ƒ MEP', 'AL30 24hs']);

  // A header sorts the view (names A to Z, numbers largest first), a second click the other way; dragging is off while sorted.
  await section.getByRole('button', { name: 'Símbolo', exact: true }).click();
  await expect(section.getByRole('columnheader', { name: /^Símbolo/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => rowNames(page)).toEqual(['AL30 24hs', 'ƒ MEP']);
  await section.getByRole('button', { name: /^Símbolo [▲▼]$/ }).click();
  await expect.poll(() => rowNames(page)).toEqual(['ƒ MEP', 'AL30 24hs']);
  await expect(section.getByRole('button', { name: 'Mover AL30 24hs' })).toBeDisabled();

  // Settings: a column chosen for this board.
  await expect(section.getByRole('columnheader', { name: /Hora/ })).toHaveCount(0);
  await section.getByRole('button', { name: 'Configuración' }).click();
  await section.getByRole('checkbox', { name: 'Hora' }).check();
  await expect(section.getByRole('columnheader', { name: /Hora/ })).toHaveCount(1);
  await expect(al30.locator('[data-field="time"]')).toHaveText(/^\d\d:\d\d:\d\d$/);

  await section.getByRole('button', { name: 'Cerrar' }).click();
  await section.screenshot({ path: 'test-results/visor-sections-board.png' });

  // Read-only: no add, drag nor row menu.
  await section.getByRole('checkbox', { name: 'Editar' }).uncheck();
  await expect(section.getByRole('button', { name: 'Agregar símbolo' })).toHaveCount(0);
  await expect(section.getByRole('button', { name: /^Mover / })).toHaveCount(0);
  await expect(section.getByRole('button', { name: /^Acciones de / })).toHaveCount(0);
  await expect(al30.locator('[data-field="last"]')).toHaveText(/^\d[\d.]*(,\d+)?$/);
});

test('formula cards: presets with live values, a symbol the catalogue lacks refused in place, edit, remove, read-only', async ({ page }) => {
  test.setTimeout(60_000);
  await openSections(page);
  const section = cards(page);
  await section.getByRole('button', { name: 'Configuración' }).click();
  await section.getByRole('button', { name: 'Agregar Dólar MEP' }).click();
  await section.getByRole('button', { name: 'Agregar Brecha MEP %' }).click();
  await section.getByLabel('Nombre').last().fill('Sin precio');
  await section.getByLabel('Fórmula').last().fill('BYMA:AL30 / BYMA:NOEXISTE');
  await section.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expect(section.getByRole('alert')).toHaveText(/^«BYMA:NOEXISTE» no está en el catálogo de instrumentos/);

  const mep = section.getByRole('article', { name: 'Dólar MEP' });
  await expect(mep.locator('[data-field="value"]')).toHaveText(/^\d{1,3}(\.\d{3})*,\d{4}$/);
  await expect(mep.getByRole('list', { name: 'Símbolos que usa' }).getByRole('listitem')).toHaveText(['AL30', 'AL30D']);
  await expect(mep).toHaveAttribute('data-stale', 'false');
  await expect(section.getByRole('article', { name: 'Brecha MEP %' }).locator('[data-field="value"]')).toHaveText(/^-?\d+,\d{2} %$/);
  await expect(mep.locator('[data-field="change"]')).toHaveText(/vs\. cierre anterior|desde que se abrió/);

  // The formula over a symbol the catalogue lacks was not added; its text waits in the form.
  await expect(section.getByRole('article')).toHaveCount(2);
  await expect(section.getByLabel('Fórmula').last()).toHaveValue('BYMA:AL30 / BYMA:NOEXISTE');
  await section.getByLabel('Fórmula').last().fill('');
  await expect(section.getByRole('alert')).toHaveCount(0);
  await expect(section).not.toContainText('NaN');
  await section.getByRole('button', { name: 'Cerrar' }).click();
  await section.screenshot({ path: 'test-results/visor-sections-formulas.png' });
  await section.getByRole('button', { name: 'Configuración' }).click();

  // Edit a formula's name, remove another.
  await section.getByRole('button', { name: 'Editar Brecha MEP %' }).click();
  await section.getByLabel('Nombre').first().fill('Dólar MEP');
  await section.getByRole('button', { name: 'Guardar' }).click();
  await expect(section.getByRole('alert')).toHaveText('Ya hay una fórmula con ese nombre');
  await section.getByRole('button', { name: 'Cancelar' }).click();
  await section.getByRole('button', { name: 'Quitar Brecha MEP %' }).click();
  await expect(section.getByRole('article')).toHaveCount(1);

  // With the server out of reach, the controls that need it are off and say why.
  await page.getByRole('checkbox', { name: 'Simular controles sin servidor' }).check();
  await expect(section.getByRole('button', { name: 'Agregar Canje' })).toBeDisabled();
  await expect(section.getByText('Sin conexión: los cambios no se pueden guardar').first()).toBeVisible();

  await section.getByRole('checkbox', { name: 'Editar' }).uncheck();
  await expect(section.getByRole('button', { name: 'Configuración' })).toHaveCount(0);
  await expect(mep.locator('[data-field="value"]')).toHaveText(/^\d{1,3}(\.\d{3})*,\d{4}$/);
});

test('a board of 200 rows renders only what is in view; rows scrolled to come in live; stale with their time while the server is gone', async ({ page }) => {
  test.setTimeout(60_000);
  const response = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) });
  const { token } = (await response.json()) as { token: string };
  const catalogue = await fetch(`${server.url}/api/visores/primary/instruments`, { headers: { authorization: `Bearer ${token}` } });
  const { instruments } = (await catalogue.json()) as { instruments: { instrumentId: { symbol: string } }[] };
  const symbols = instruments
    .map((instrument) => instrument.instrumentId.symbol)
    .filter((symbol) => !symbol.includes(','))
    .slice(0, 200);
  expect(symbols).toHaveLength(200);

  await signIn(page, DEMO, `${server.url}/auth/signin`);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`${server.url}/test?secciones=${encodeURIComponent(symbols.join(','))}`);
  const section = board(page);
  await expect(section.getByRole('table')).toHaveAttribute('aria-rowcount', '201');
  const rendered = section.locator('[role="row"][data-symbol]');
  await expect(rendered.first()).toHaveAttribute('data-stale', 'false');
  expect(await rendered.count()).toBeLessThan(40);

  // The last row, scrolled to, is rendered and live (its symbol was held off screen all along).
  await section.locator('.vs-table-scroll').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  const lastRow = section.locator(`[role="row"][data-symbol="${symbols.at(-1)}"]`);
  await expect(lastRow).toHaveAttribute('data-stale', 'false');
  await expect(section.locator(`[role="row"][data-symbol="${symbols[0]}"]`)).toHaveCount(0);

  // The server gone: rows are marked stale with the time of their last value, then live again once it is back.
  await server.kill();
  await expect(lastRow).toHaveAttribute('data-stale', 'true');
  await expect(lastRow.locator('.vs-row__note')).toHaveText(/^último \d\d:\d\d:\d\d$/);
  await expect(lastRow.locator('.vs-row__note')).toHaveAttribute('title', /^No está en vivo \(último \d\d:\d\d:\d\d\)$/);
  // The note gives way to the name: the symbol is whole, or cut only where the name cell itself ends
  // (the note had squeezed «DLR/NOV26» to «DLR…» in a cell with room for it).
  await page.setViewportSize({ width: 900, height: 720 });
  const label = lastRow.locator('.vs-row__label');
  const nameWhole = () =>
    label.evaluate((element) => {
      const cell = element.parentElement!;
      const style = getComputedStyle(cell);
      const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return element.scrollWidth <= element.clientWidth || element.getBoundingClientRect().width >= room - 1;
    });
  await expect.poll(nameWhole).toBe(true);
  await server.restart();
  await expect(lastRow).toHaveAttribute('data-stale', 'false', { timeout: 30_000 });
  await expect(lastRow.locator('.vs-row__note')).toHaveText('');
});

test('a board narrower than its columns scrolls sideways under the pinned names and row menus; changed numbers flash', async ({ page }) => {
  test.setTimeout(60_000);
  await openSections(page);
  const section = board(page);
  await section.getByRole('button', { name: 'Agregar símbolo' }).click();
  const search = section.getByRole('searchbox');
  for (const ticker of ['AL30', 'GGAL']) {
    await search.fill(ticker);
    await search.press('Enter');
  }
  const first = section.locator('[role="row"][data-symbol]').first();
  await expect(first).toHaveAttribute('data-stale', 'false');
  // A changed number is lit for a moment (a data attribute the stylesheet paints), then put out.
  const lit = section.locator('.vs-row__num[data-flash]').first();
  await expect(lit).toBeAttached();
  const where = await lit.evaluate((cell) => ({ symbol: cell.closest('[role="row"]')!.getAttribute('data-symbol')!, field: cell.dataset.field! }));
  const cell = section.locator(`[role="row"][data-symbol="${where.symbol}"] [data-field="${where.field}"]`);
  await expect.poll(() => cell.evaluate((node) => node.hasAttribute('data-flash')), { intervals: [50] }).toBe(false);

  const scroller = section.locator('.vs-table-scroll');
  // Wide enough: nothing pinned (a pinned cell is a compositor layer per row).
  await expect(scroller).toHaveAttribute('data-overflow', 'false');
  expect(await first.locator('.vs-row__name').evaluate((cell) => getComputedStyle(cell).position)).not.toBe('sticky');

  // A narrow section: the board overflows; the row menu stays in view at the right edge.
  await scroller.evaluate((element) => (element.style.width = '360px'));
  await expect(scroller).toHaveAttribute('data-overflow', 'true');
  const box = (await scroller.boundingBox())!;
  const menu = (await first.getByRole('button', { name: /^Acciones de / }).boundingBox())!;
  expect(menu.x + menu.width).toBeLessThanOrEqual(box.x + box.width + 1);
  expect(await first.locator('.vs-row__name').evaluate((cell) => getComputedStyle(cell).position)).not.toBe('sticky');

  // Scrolled sideways: the name stays at the left edge while the numbers move under it.
  await scroller.evaluate((element) => element.scrollTo({ left: 200 }));
  await expect(scroller).toHaveAttribute('data-scrolled', 'true');
  await expect
    .poll(async () => {
      const name = (await first.locator('.vs-row__label').boundingBox())!;
      return name.x >= box.x && name.x < box.x + 80;
    })
    .toBe(true);
  const number = (await first.locator('.vs-row__num').first().boundingBox())!;
  expect(number.x).toBeLessThan(box.x + 150);
  // The header's first and last cells are pinned too: no column title shows through left of Símbolo.
  const head = section.locator('.vs-row--head');
  for (const cell of [head.locator('.vs-row__handle'), head.locator('.vs-row__actions')]) {
    expect(await cell.evaluate((element) => getComputedStyle(element).position)).toBe('sticky');
  }
});
