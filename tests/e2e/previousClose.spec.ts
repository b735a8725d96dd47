// One previous close everywhere: a visor's quote board, chart and formula measure a DLR
// future against the same close, the one the market's history has for the last closed day.
import { expect, test, type Locator } from '@playwright/test';
import { signIn } from './helpers';
import { newUser } from './shellHelpers';
import { login, section } from './visorHelpers';

/** '1.515,50' → 1515.5; '+12,50' → 12.5. */
const parseNumber = (text: string) => Number(text.replace(/[^\d,+-]/g, '').replace(',', '.'));

/** The texts of several elements read in one go (the market moves between two reads). */
async function readTogether(locators: Locator[]): Promise<string[]> {
  const handles = await Promise.all(locators.map((locator) => locator.elementHandle()));
  return locators[0]!.page().evaluate((elements) => elements.map((element) => element?.textContent ?? ''), handles);
}

test('the board, the chart and a formula agree on the previous close, the history\u2019s last closed day', async ({ page, request }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const account = await newUser(request, 'close');
  const { token, user } = await login(request, account);
  const headers = { authorization: `Bearer ${token}` };
  const answer = await request.get('/api/visores/primary/instruments', { headers });
  const { instruments } = (await answer.json()) as { instruments: { instrumentId: { symbol: string }; maturityDate?: string; cficode: string }[] };
  const dollar = instruments
    .filter((instrument) => instrument.cficode === 'FXXXSX' && /^DLR\/[A-Z]{3}\d{2}$/.test(instrument.instrumentId.symbol))
    .sort((a, b) => a.maturityDate!.localeCompare(b.maturityDate!))[1]!.instrumentId.symbol;

  const created = await request.post(`/api/visores/${user._id}/new`, { data: { title: 'Cierre', emoji: '💵', color: '#22c55e', folder_id: null }, headers });
  const visorId = ((await created.json()) as { data: { id_visor: string } }).data.id_visor;
  const saved = await request.put(`/api/visores/${visorId}/update_secciones`, {
    headers,
    data: {
      secciones: [
        {
          id: 'board',
          type: 'quotes',
          title: 'Tabla',
          layout: { x: 0, y: 0, w: 6, h: 6 },
          config: { rows: [{ kind: 'symbol', symbol: dollar }], columns: ['last', 'change', 'close'] },
        },
        {
          id: 'cards',
          type: 'formula',
          title: 'Fórmula',
          layout: { x: 6, y: 0, w: 6, h: 6 },
          config: { formulas: [{ name: 'El futuro', expression: `ROFEX:${dollar} * 1`, unit: 'price' }] },
        },
        { id: 'chart', type: 'chart', title: 'Gráfico', layout: { x: 0, y: 6, w: 12, h: 8 }, config: { series: [dollar], interval: '1d', range: '1M' } },
      ],
    },
  });
  expect(saved.ok(), await saved.text()).toBe(true);

  // The history's close of the day before the current session.
  const history = await request.post('/api/visores/search/symbol/history', { headers, data: { symbol: dollar, limit: 3 } });
  const { data } = (await history.json()) as { data: { time: string; close: number }[] };
  const previousClose = data.at(-2)!.close;

  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  const row = section(page, 'Tabla').locator(`[role="row"][data-symbol="${dollar}"]`);
  const card = section(page, 'Fórmula').locator('[data-formula="El futuro"]');
  const chart = section(page, 'Gráfico');
  await expect(row.locator('[data-field="last"]')).toHaveText(/\d/);
  await expect(card.locator('[data-field="change"]')).toHaveText(/vs\. cierre anterior/);
  await expect(chart.locator('.vs-chart')).toHaveAttribute('data-state', 'current');
  await expect(chart.locator(`[data-series="${dollar}"] [data-field="change"]`)).toHaveText(/\d/);

  // The board's own column.
  expect(parseNumber((await row.locator('[data-field="close"]').textContent()) ?? '')).toBe(previousClose);
  // Each view's value less its change is the close it measures from.
  const [boardLast, boardChange] = await readTogether([row.locator('[data-field="last"]'), row.locator('[data-field="change"]')]);
  expect(parseNumber(boardLast!) - parseNumber(boardChange!)).toBeCloseTo(previousClose, 6);
  const [cardValue, cardChange] = await readTogether([card.locator('[data-field="value"]'), card.locator('[data-field="change"]')]);
  expect(parseNumber(cardValue!) - parseNumber(cardChange!.split(' ')[0]!)).toBeCloseTo(previousClose, 6);
  const legend = chart.locator(`[data-series="${dollar}"]`);
  const [chartValue, chartChange] = await readTogether([legend.locator('[data-field="value"]'), legend.locator('[data-field="change"]')]);
  expect(parseNumber(chartValue!) - parseNumber(chartChange!.split(' ')[0]!)).toBeCloseTo(previousClose, 6);
});
