// One time zone: every date and time the app shows is market time (Buenos Aires, UTC−3),
// whatever the browser's zone. Each test runs with the browser in Tokyo (12 hours ahead of
// Buenos Aires) and in Los Angeles (5 hours behind in March), one page each: Inicio, the
// operator log (its filter's days, its rows and its CSV) and a visor's fills.
//
// A server of the spec's own: its paper broker fills an order about every second, and the
// spec writes the times the API never lets a client choose (a visor's last change, the log's
// rows) straight into its SQLite file, either side of a Buenos Aires midnight.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { csvRecords } from './csv';
import { ADMIN, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';

let server: OwnServer;
let db: Database.Database;

test.describe.configure({ timeout: 90_000 });

test.beforeAll(async () => {
  server = await startOwnServer({ PAPER_FILL_SECONDS: '1' });
  db = new Database(path.join(server.dataDir, 'visores.sqlite'));
  db.pragma('busy_timeout = 5000');
});

test.afterAll(async () => {
  db?.close();
  await server?.stop();
});

interface Account {
  username: string;
  password: string;
}

async function login(request: APIRequestContext, account: Account) {
  const response = await request.post(`${server.url}/api/login`, { data: account });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { token: string; user: { _id: string } };
}

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function newUser(request: APIRequestContext): Promise<Account> {
  const admin = await login(request, ADMIN);
  const account = { username: unique('tz'), password: 'clave-segura-1' };
  const response = await request.post(`${server.url}/api/admin/users`, { data: account, headers: { authorization: `Bearer ${admin.token}` } });
  expect(response.ok(), await response.text()).toBe(true);
  return account;
}

async function newVisor(request: APIRequestContext, account: Account, title: string, secciones: unknown[] = []): Promise<string> {
  const { token, user } = await login(request, account);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post(`${server.url}/api/visores/${user._id}/new`, { data: { title, emoji: '🕒', color: '#22c55e', folder_id: null }, headers });
  expect(created.ok(), await created.text()).toBe(true);
  const visorId = ((await created.json()) as { data: { id_visor: string } }).data.id_visor;
  if (secciones.length > 0) {
    const saved = await request.put(`${server.url}/api/visores/${visorId}/update_secciones`, { data: { secciones }, headers });
    expect(saved.ok(), await saved.text()).toBe(true);
  }
  return visorId;
}

async function signInHere(page: Page, account: Account) {
  await signIn(page, account, `${server.url}/auth/signin`);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
}

/** How the browser's own zone would write an instant (what the app must not show). */
const browserDate = (page: Page, at: number) => page.evaluate((ms) => new Date(ms).toLocaleDateString('es-AR'), at);

/** Buenos Aires' `dd/mm HH:MM:SS` of an instant, by the runtime's time zone data (not the app's code). */
const marketDayAndTime = (at: number) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Argentina/Buenos_Aires',
      day: '2-digit',
      month: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day}/${parts.month} ${parts.hour}:${parts.minute}:${parts.second}`;
};

// 10 March 2026 in Buenos Aires runs from 03:00 UTC that day to 03:00 UTC the next.
const EVENING = Date.UTC(2026, 2, 10, 23); // 20:00 in Buenos Aires; already the 11th in Tokyo
const SMALL_HOURS = Date.UTC(2026, 2, 10, 5); // 02:00 in Buenos Aires; still the 9th in Los Angeles

for (const timezoneId of ['Asia/Tokyo', 'America/Los_Angeles']) {
  test.describe(`with the browser's clock in ${timezoneId}`, () => {
    test.use({ timezoneId });

    test("Inicio dates the visores by the market's day", async ({ page, request }) => {
      const account = await newUser(request);
      const ids = { Tarde: await newVisor(request, account, 'Tarde'), Madrugada: await newVisor(request, account, 'Madrugada') };
      const update = db.prepare('UPDATE visores SET updated_at = ? WHERE id = ?');
      update.run(EVENING, ids.Tarde);
      update.run(SMALL_HOURS, ids.Madrugada);

      await signInHere(page, account);
      // The browser's zone would write one of them as another day.
      expect([await browserDate(page, EVENING), await browserDate(page, SMALL_HOURS)]).not.toEqual(['10/3/2026', '10/3/2026']);
      const recent = page.getByRole('region', { name: 'Recientes' });
      for (const title of ['Tarde', 'Madrugada']) await expect(recent.getByRole('link', { name: title })).toContainText('10/03/2026');
    });

    test('the operator log filters by market days and shows market times, on screen and in the CSV', async ({ page }) => {
      const username = unique('tzlog');
      // Either side of both Buenos Aires midnights of 10 March.
      const rows = [
        ['antes', Date.UTC(2026, 2, 10, 2, 59, 59)],
        ['inicio', Date.UTC(2026, 2, 10, 3)],
        ['fin', Date.UTC(2026, 2, 11, 2, 59, 59)],
        ['despues', Date.UTC(2026, 2, 11, 3)],
      ] as const;
      const insert = db.prepare("INSERT INTO operator_log (id, at, user_id, username, action, detail, ip) VALUES (?, ?, NULL, ?, 'login', NULL, NULL)");
      for (const [id, at] of rows) insert.run(`${username}-${id}`, at, username);

      await signIn(page, ADMIN, `${server.url}/auth/signin`);
      await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
      await page.goto(`${server.url}/admin/datacenter/logs-operadores`);
      await page.getByLabel('Usuario', { exact: true }).fill(username);
      await page.getByLabel('Desde').fill('2026-03-10');
      await page.getByLabel('Hasta').fill('2026-03-10');
      await page.getByRole('button', { name: 'Filtrar' }).click();
      const shown = page.locator('tr[data-log-id]');
      await expect(shown).toHaveCount(2);
      expect(await shown.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-log-id')))).toEqual([
        `${username}-fin`,
        `${username}-inicio`,
      ]);
      await expect(shown.locator('td:first-child')).toHaveText(['10/03/2026 23:59:59', '10/03/2026 00:00:00']);

      // Said where the days are typed.
      await expect(page.getByRole('form', { name: 'Filtros del log' })).toContainText('Fechas y horas de Buenos Aires (UTC−3)');

      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Exportar CSV' }).click();
      const records = csvRecords(await readFile((await (await downloading).path())!, 'utf8'));
      expect(records.map((record) => [record.id, record['fecha (Buenos Aires)']])).toEqual([
        [`${username}-fin`, '2026-03-10 23:59:59'],
        [`${username}-inicio`, '2026-03-10 00:00:00'],
      ]);
    });

    test("a visor's fills show the market's time", async ({ page, request }) => {
      const account = await newUser(request);
      const paper = `DEMO-${account.username.toUpperCase()}`;
      const visorId = await newVisor(request, account, 'Cartera', [
        { id: 'p1', type: 'positions', title: 'Cartera', layout: { x: 0, y: 0, w: 12, h: 9 }, config: { account: paper, brokerUrl: 'sim://' } },
      ]);
      await signInHere(page, account);
      await page.goto(`${server.url}/visor/${visorId}/edit`);
      const fills = page.getByRole('article', { name: 'Cartera', exact: true }).getByRole('table', { name: `Operaciones de ${paper}` });
      await expect(fills.locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });
      // One fill by its id: newer ones keep arriving above it.
      const execId = await fills.locator('tbody tr').first().getAttribute('data-exec-id');
      const time = fills.locator(`tr[data-exec-id="${execId}"] [data-field="time"] time`);
      const at = Date.parse((await time.getAttribute('datetime'))!);
      // Tokyo and Los Angeles never share Buenos Aires' hour.
      expect(await page.evaluate((ms) => new Date(ms).getHours(), at)).not.toBe(Number(marketDayAndTime(at).slice(6, 8)));
      await expect(time).toHaveText(marketDayAndTime(at));
    });
  });
}
