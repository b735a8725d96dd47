// The futures curve section (`Curva`, issue 19) as a person uses it: added to a visor, it lists
// the DLR months the catalogue has, nearest first; one row's TNA and TEA are what the formula
// gives from that row's own displayed price, spot and days (reference/argentine-market.md);
// weekdays change the days (and the year to 252); the numbers move with the ticks; the chart
// draws every month; a visitor of the public visor sees it without its settings.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { newUser } from './shellHelpers';
import { expectSaved, login, section } from './visorHelpers';

test.describe.configure({ timeout: 90_000 });

/** `1.489,5` → 1489.5; `29,53 %` → 29.53; `+42,16` → 42.16. */
function readNumber(text: string): number {
  const cleaned = text
    .replace(/[%\s+]|medio/g, '')
    .replaceAll('.', '')
    .replace(',', '.');
  const value = Number(cleaned);
  expect(Number.isFinite(value), `«${text}» is a number`).toBe(true);
  return value;
}

interface RowReading {
  price: string;
  spot: string;
  days: string;
  tna: string;
  tea: string;
}

/** One row's figures and the spot, read in one go (the table re-renders with every batch of ticks). */
async function readRow(curve: Locator, contract: string): Promise<RowReading> {
  return curve.evaluate((element, symbol) => {
    const row = element.querySelector(`tr[data-symbol="${symbol}"]`)!;
    const cell = (field: string) => row.querySelector(`[data-field="${field}"]`)!.textContent!;
    return { price: cell('price'), spot: element.querySelector('[data-field="spot"]')!.textContent!, days: cell('days'), tna: cell('tna'), tea: cell('tea') };
  }, contract);
}

/** The rates the formula gives from what the row shows, in percent, beside what it shows. */
function checkRates(reading: RowReading, base: number): void {
  const [price, spot, days] = [readNumber(reading.price), readNumber(reading.spot), readNumber(reading.days)];
  expect(days).toBeGreaterThan(0);
  const tna = (price / spot - 1) * (base / days) * 100;
  const tea = ((price / spot) ** (base / days) - 1) * 100;
  // Shown with two decimals: within half a hundredth (and the spot's own rounding).
  expect(Math.abs(readNumber(reading.tna) - tna), `TNA ${reading.tna} for ${JSON.stringify(reading)}`).toBeLessThanOrEqual(0.0051);
  expect(Math.abs(readNumber(reading.tea) - tea), `TEA ${reading.tea} for ${JSON.stringify(reading)}`).toBeLessThanOrEqual(0.0051);
}

/** Today in Buenos Aires, as the UTC date of that day. */
function marketToday(): Date {
  const local = new Date(Date.now() - 3 * 3_600_000);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
}

function weekdaysUntil(from: Date, to: Date): number {
  let count = 0;
  for (const day = new Date(from); day < to;) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) count += 1;
  }
  return count;
}

async function openNewVisor(page: Page, request: Parameters<typeof newUser>[0], title: string) {
  const account = await newUser(request, 'curva');
  const { token, user } = await login(request, account);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post(`/api/visores/${user._id}/new`, { data: { title, emoji: '💵', color: '#22c55e', folder_id: null }, headers });
  expect(created.ok(), await created.text()).toBe(true);
  const visorId = ((await created.json()) as { data: { id_visor: string } }).data.id_visor;
  // The DLR months of the catalogue the server lists today, nearest first.
  const catalogue = await request.get('/api/visores/primary/instruments', { headers });
  expect(catalogue.ok()).toBe(true);
  const today = marketToday();
  const todayText = today.toISOString().slice(0, 10).replaceAll('-', '');
  const months = ((await catalogue.json()) as { instruments: { instrumentId: { symbol: string }; maturityDate?: string }[] }).instruments
    .filter(
      (instrument) => /^DLR\/[A-Z]{3}\d{2}$/.test(instrument.instrumentId.symbol) && instrument.maturityDate != null && instrument.maturityDate >= todayText,
    )
    .sort((a, b) => a.maturityDate!.localeCompare(b.maturityDate!));
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  return { account, visorId, headers, today, months };
}

test('a curve of the DLR months: TNA and TEA from the row itself, weekdays, live numbers and the chart', async ({ page, request }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const { today, months } = await openNewVisor(page, request, 'Tasas implícitas');
  expect(months.length).toBeGreaterThanOrEqual(2);

  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: 'Curva' }).click();
  const frame = section(page, 'Curva');
  await expect(frame).toBeVisible();
  await expectSaved(page);
  const curve = frame.locator('.vs-curve');
  const table = frame.getByRole('table', { name: 'Curva: contratos de DLR' });

  // One row per DLR month of the catalogue, nearest first, with its expiry date.
  await expect(table.locator('tbody tr')).toHaveCount(months.length);
  await expect(table.getByRole('rowheader')).toHaveText(months.map((month) => month.instrumentId.symbol));
  const second = months[1]!;
  const row = table.locator(`tr[data-symbol="${second.instrumentId.symbol}"]`);
  const expiry = second.maturityDate!;
  await expect(row.locator('[data-field="expiry"]')).toHaveText(`${expiry.slice(6, 8)}/${expiry.slice(4, 6)}/${expiry.slice(0, 4)}`);

  // Live figures: the spot A3500 and the row's price, then its rates from them (calendar days, 365).
  await expect(frame.locator('[data-field="spot"]')).toHaveText(/^\d{1,3}(\.\d{3})*,\d{4}$/);
  await expect(row.locator('[data-field="tna"]')).toHaveText(/^-?\d+,\d{2} %$/);
  await expect(table.getByRole('columnheader', { name: 'Días corridos' })).toBeVisible();
  const calendar = await readRow(curve, second.instrumentId.symbol);
  const expiryDate = new Date(Date.UTC(Number(expiry.slice(0, 4)), Number(expiry.slice(4, 6)) - 1, Number(expiry.slice(6, 8))));
  expect(readNumber(calendar.days)).toBe(Math.round((expiryDate.getTime() - today.getTime()) / 86_400_000));
  checkRates(calendar, 365);
  // The chart draws a point for each month with a rate.
  // The chart draws a point for each month with a rate (none on its expiry day: no days left).
  const todayText = today.toISOString().slice(0, 10).replaceAll('-', '');
  const withRates = months.filter((month) => month.maturityDate !== todayText).length;
  await expect(frame.getByRole('img', { name: 'Gráfico de la TNA por vencimiento' })).toHaveAttribute('data-points', String(withRates));
  await expect(frame.locator('.vs-curve__chart canvas').first()).toBeVisible();

  // The numbers move with the ticks, without a reload.
  const before = await table.locator('tbody').textContent();
  await expect(table.locator('tbody')).not.toHaveText(before ?? '', { timeout: 45_000 });

  // Weekdays: the days become the weekdays to expiry and the rates use a year of 252.
  await frame.getByRole('radio', { name: /Hábiles/ }).check();
  await expect(table.getByRole('columnheader', { name: 'Días hábiles' })).toBeVisible();
  await expect(row.locator('[data-field="days"]')).toHaveText(String(weekdaysUntil(today, expiryDate)));
  checkRates(await readRow(curve, second.instrumentId.symbol), 252);
  // The chart's rate: TEA.
  await frame.getByRole('radio', { name: 'TEA' }).check();
  await expect(frame.getByRole('img', { name: 'Gráfico de la TEA por vencimiento' })).toBeVisible();
  await expectSaved(page);

  // Kept: after a reload the section reads its saved settings.
  await page.reload();
  await expect(table.getByRole('columnheader', { name: 'Días hábiles' })).toBeVisible();
  await expect(frame.getByRole('img', { name: 'Gráfico de la TEA por vencimiento' })).toBeVisible();
});

test('a bad spot reference is refused with a message, another product has its own months and spot; a visitor of the public visor sees the curve without settings', async ({
  page,
  request,
  browser,
}) => {
  const { visorId, headers } = await openNewVisor(page, request, 'Curva pública');
  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: 'Curva' }).click();
  const frame = section(page, 'Curva');
  const other = frame.getByLabel('Otra referencia');
  await other.fill('NO/EXISTE');
  await frame.getByRole('button', { name: 'Usar' }).click();
  await expect(frame.getByRole('alert')).toHaveText('«NO/EXISTE» no está en el catálogo de instrumentos');
  await expect(other).toHaveAttribute('aria-invalid', 'true');
  // No spot: no basis or rates, only the forwards between months.
  await frame.getByLabel('Referencia spot').selectOption('');
  await expect(frame.getByText('Sin referencia spot: solo tasas forward')).toBeVisible();
  const firstRow = frame.locator('tbody tr').nth(1);
  await expect(firstRow.locator('[data-field="tna"]')).toHaveText('—');
  await expect(firstRow.locator('[data-field="forward"]')).toHaveText(/^-?\d+,\d{2} %$/);
  await frame.getByLabel('Referencia spot').selectOption('DLR/SPOT');
  await expect(firstRow.locator('[data-field="tna"]')).toHaveText(/^-?\d+,\d{2} %$/);
  await expectSaved(page);

  // Another product the catalogue lists with several months: its months, against its own spot (the index).
  await frame.getByLabel('Producto').selectOption('RFX20');
  await expect(frame.getByLabel('Referencia spot')).toHaveValue('I.RFX20');
  await expect(frame.getByRole('table', { name: 'Curva: contratos de RFX20' }).getByRole('rowheader').first()).toHaveText(/^RFX20\/[A-Z]{3}\d{2}$/);
  await expect(frame.getByRole('table', { name: 'Curva: contratos de RFX20' }).getByRole('rowheader').filter({ hasText: /^DLR/ })).toHaveCount(0);
  await expect(firstRow.locator('[data-field="tna"]')).toHaveText(/^-?\d+,\d{2} %$/);
  await expectSaved(page);

  const shared = await request.put(`/api/visores/${visorId}/check_option`, { data: { option: 'public', value: true }, headers });
  expect(shared.ok()).toBe(true);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await signIn(visitor, await newUser(request, 'visita'));
  await expect(visitor.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await visitor.goto(`/visor/${visorId}/public`);
  const seen = section(visitor, 'Curva');
  await expect(seen.locator('tbody tr [data-field="tna"]').nth(1)).toHaveText(/^-?\d+,\d{2} %$/);
  await expect(seen.getByRole('button', { name: 'Configurar sección' })).toHaveCount(0);
  await expect(seen.getByRole('group', { name: 'Configuración de la curva' })).toHaveCount(0);
  await visitorContext.close();
});

test("an expired month drops out at the market's midnight, without a reload", async ({ page, request }) => {
  // The page's clock only (timers keep running): the first DLR month's expiry day, at noon in Buenos Aires.
  const { months, visorId } = await openNewVisor(page, request, 'Curva que rueda');
  const first = months[0]!.maturityDate!;
  const [year, month, day] = [Number(first.slice(0, 4)), Number(first.slice(4, 6)) - 1, Number(first.slice(6, 8))];
  await page.clock.setFixedTime(new Date(Date.UTC(year, month, day, 15)));
  await page.goto(`/visor/${visorId}/edit`);
  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: 'Curva' }).click();
  const table = section(page, 'Curva').getByRole('table', { name: 'Curva: contratos de DLR' });

  // It still trades on its expiry day: no days left, so no rate rather than a division by zero.
  const expiring = table.locator(`tr[data-symbol="${months[0]!.instrumentId.symbol}"]`);
  await expect(expiring.locator('[data-field="days"]')).toHaveText('0');
  await expect(expiring.locator('[data-field="price"]')).toHaveText(/^\d[\d.]*,\d+/);
  await expect(expiring.locator('[data-field="tna"]')).toHaveText('—');
  await expect(expiring.locator('[data-field="tea"]')).toHaveText('—');
  await expect(table.locator('tbody tr')).toHaveCount(months.length);
  await expect(table).not.toContainText(/NaN|Infinity/);

  // Past midnight in Buenos Aires (03:00 UTC): gone, the next month first, without a reload.
  await page.clock.setFixedTime(new Date(Date.UTC(year, month, day + 1, 3, 0, 5)));
  await expect(expiring).toHaveCount(0, { timeout: 20_000 });
  await expect(table.locator('tbody tr')).toHaveCount(months.length - 1);
  await expect(table.getByRole('rowheader').first()).toHaveText(months[1]!.instrumentId.symbol);
});
