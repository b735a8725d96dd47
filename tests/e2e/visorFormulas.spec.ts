// Formulas a trader can trust, on the visor screen: a formula over a symbol the catalogue lacks
// is refused where it is written (the Fórmulas section, a board's formula row, a chart's
// formula series), naming the wrong symbol, and nothing of it is saved; a formula says what
// its value is, and a rate's change reads in percentage points while a price's reads in percent
// (the curve's implied devaluation too).
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { newUser, type Account } from './shellHelpers';
import { expectSaved, login, renameSection, section, seedVisor } from './visorHelpers';

test.describe.configure({ timeout: 90_000 });

const UNKNOWN = /^«BYMA:NOEXISTE» no está en el catálogo de instrumentos/;
/** A rate's change: `+0,35 pp vs. cierre anterior` (or since the card first saw a value). */
const POINTS = /^[+-]?\d+,\d{2} pp (vs\. cierre anterior|desde que se abrió)$/;

async function openVisor(page: Page, request: APIRequestContext, prefix: string): Promise<{ account: Account; visorId: string }> {
  const account = await newUser(request, prefix);
  // Two formula sections, `Uno` and `Dos`, each with a MEP formula saved as older clients did (no unit).
  const visorId = await seedVisor(request, account, 'Fórmulas de confianza');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await expect(section(page, 'Uno')).toBeVisible();
  return { account, visorId };
}

async function storedSections(request: APIRequestContext, account: Account, visorId: string): Promise<unknown[]> {
  const { token } = await login(request, account);
  const answer = await request.get(`/api/visores/${visorId}/get`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { data: { secciones: unknown[] } }).data.secciones;
}

async function addSection(page: Page, label: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: label }).click();
  const added = section(page, label);
  await expect(added).toBeVisible();
  return added;
}

test('a formula over a symbol the catalogue lacks is refused where it is written, naming it, and nothing of it is saved', async ({ page, request }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const { account, visorId } = await openVisor(page, request, 'fxs');

  // The Fórmulas section's form.
  const uno = section(page, 'Uno');
  await uno.getByRole('button', { name: 'Configurar sección' }).click();
  await uno.getByLabel('Nombre').last().fill('Mitad');
  await uno.getByLabel('Fórmula').last().fill('BYMA:NOEXISTE / 2');
  await uno.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expect(uno.getByRole('alert')).toHaveText(UNKNOWN);
  await expect(uno.getByLabel('Fórmula').last()).toHaveAttribute('aria-invalid', 'true');
  // The text waits in the form; no card was made.
  await expect(uno.getByLabel('Fórmula').last()).toHaveValue('BYMA:NOEXISTE / 2');
  await expect(uno.getByRole('article', { name: 'Mitad' })).toHaveCount(0);

  // A board's formula row.
  const board = await addSection(page, 'Cotizaciones');
  await board.getByRole('button', { name: 'Agregar fórmula' }).click();
  await board.getByLabel('Nombre').fill('Mitad');
  await board.getByLabel('Fórmula').fill('BYMA:AL30 + BYMA:NOEXISTE');
  await board.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expect(board.getByRole('alert')).toHaveText(UNKNOWN);
  await expect(board.locator('[role="row"][data-formula]')).toHaveCount(0);

  // A chart's formula series (a new chart opens its settings).
  const chart = await addSection(page, 'Gráfico');
  const chartSettings = chart.getByRole('group', { name: 'Configuración del gráfico' });
  await chartSettings.getByLabel('Fórmula').fill('BYMA:NOEXISTE / BYMA:AL30D');
  await chartSettings.getByRole('button', { name: 'Agregar fórmula' }).click();
  await expect(chartSettings.locator('.form-error')).toHaveText(UNKNOWN);
  await expect(chart.locator('[data-series]')).toHaveCount(1);

  // Another change is saved; none of the refused formulas went with it.
  await renameSection(page, 'Dos', 'Dos bis');
  await expectSaved(page);
  const titles = async () => (await storedSections(request, account, visorId)).map((stored) => (stored as { title: string }).title).sort();
  await expect.poll(titles).toEqual(['Cotizaciones', 'Dos bis', 'Gráfico', 'Uno']);
  const saved = await storedSections(request, account, visorId);
  expect(JSON.stringify(saved)).not.toContain('NOEXISTE');
  expect(saved[0]).toMatchObject({ config: { formulas: [{ name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D', unit: 'price' }] } });

  // Named right, the form takes it (its settings closed when another section's opened).
  await uno.getByRole('button', { name: 'Configurar sección' }).click();
  await uno.getByLabel('Nombre').last().fill('Mitad');
  await uno.getByLabel('Fórmula').last().fill('BYMA:AL30 / 2');
  await uno.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expect(uno.getByRole('article', { name: 'Mitad' })).toBeVisible();
});

test("a rate formula's change reads in percentage points, a price's in percent, and each says what its value is", async ({ page, request }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const { account, visorId } = await openVisor(page, request, 'fxr');
  const uno = section(page, 'Uno');

  // The formula saved without a unit reads as a price: its change in pesos and in percent.
  const mep = uno.getByRole('article', { name: 'MEP' });
  await expect(mep).toHaveAttribute('data-unit', 'price');
  await expect(mep.locator('[data-field="change"]')).toHaveText(/^[+-]?[\d.]+,\d{4} \([+-]?\d+,\d{2} %\) (vs\. cierre anterior|desde que se abrió)$/);

  // A rate typed by hand: its shape suggests «Tasa (%)»; its value reads in % and its change in points.
  await uno.getByRole('button', { name: 'Configurar sección' }).click();
  await uno.getByLabel('Nombre').last().fill('Prima cable sobre MEP');
  await uno.getByLabel('Fórmula').last().fill('(BYMA:AL30C / BYMA:AL30D - 1) * 100');
  await expect(uno.getByLabel('Valor').last()).toHaveValue('rate');
  await uno.getByRole('button', { name: 'Agregar', exact: true }).click();
  const premium = uno.getByRole('article', { name: 'Prima cable sobre MEP' });
  await expect(premium).toHaveAttribute('data-unit', 'rate');
  await expect(premium.locator('[data-field="value"]')).toHaveText(/^-?\d+,\d{2} %$/);
  await expect(premium.locator('[data-field="change"]')).toHaveText(POINTS);

  // The preset gap is a rate too.
  await uno.getByRole('button', { name: 'Agregar Brecha MEP %' }).click();
  await expect(uno.getByRole('article', { name: 'Brecha MEP %' }).locator('[data-field="change"]')).toHaveText(POINTS);

  // On a board: the rate row's changes in points.
  const board = await addSection(page, 'Cotizaciones');
  await board.getByRole('button', { name: 'Agregar fórmula' }).click();
  await board.getByLabel('Nombre').fill('Prima');
  await board.getByLabel('Fórmula').fill('(BYMA:AL30C / BYMA:AL30D - 1) * 100');
  await board.getByRole('button', { name: 'Agregar', exact: true }).click();
  const row = board.locator('[role="row"][data-formula="Prima"]');
  await expect(row).toHaveAttribute('data-unit', 'rate');
  await expect(row.locator('[data-field="change_pct"]')).toHaveText(/^[+-]?\d+,\d{2} pp$/);
  await expect(row.locator('[data-field="last"]')).toHaveText(/^-?\d+,\d{2} %$/);

  // The curve's implied devaluation moves in points too.
  const curve = await addSection(page, 'Curva');
  await expect(curve.locator('tbody tr').first().locator('[data-field="devaluation_change"]')).toHaveText(/^[+-]?\d+,\d{2} pp$/);

  // Saved with their units, and read so after a reload.
  await expectSaved(page);
  const units = async () => {
    const saved = (await storedSections(request, account, visorId)) as { config: { formulas?: { name: string; unit: string }[] } }[];
    return saved[0]!.config.formulas?.map((formula) => `${formula.name}: ${formula.unit}`);
  };
  await expect.poll(units).toEqual(['MEP: price', 'Prima cable sobre MEP: rate', 'Brecha MEP %: rate']);
  await page.reload();
  await expect(section(page, 'Uno').getByRole('article', { name: 'Prima cable sobre MEP' }).locator('[data-field="change"]')).toHaveText(POINTS);
  await section(page, 'Uno').screenshot({ path: 'test-results/visor-formulas-units.png' });
});

test('a new, short Fórmulas section shows why a formula is refused, not below its own fold', async ({ page, request }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await openVisor(page, request, 'fxs');
  const fresh = await addSection(page, 'Fórmulas');
  const form = fresh.locator('form').last();
  await form.getByLabel('Nombre').fill('Mitad');
  await form.getByLabel('Fórmula').fill('BYMA:NOEXISTE / 2');
  await form.getByRole('button', { name: 'Agregar', exact: true }).click();
  await expect(fresh.getByRole('alert')).toHaveText(UNKNOWN);
  await expect(fresh.getByRole('alert')).toBeInViewport();
});
