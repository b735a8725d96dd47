// The admin's status pages (issue 20): the admin home, the TV and ROFEX data centers and the
// operator logs, signed in as admin against the real server and its live simulator.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { csvRecords } from './csv';
import { ADMIN, DEMO, signIn, storedToken } from './helpers';

const ROUTES = {
  home: '/admin',
  tv: '/admin/datacenter/tv',
  rofex: '/admin/datacenter/rofex',
  logs: '/admin/datacenter/logs-operadores',
} as const;

async function signInAsAdmin(page: Page) {
  await signIn(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
}

/** A second admin in a browser of their own. */
async function otherAdmin(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAsAdmin(page);
  return page;
}

const feedCard = (page: Page, name: 'tv' | 'rofex') => page.locator(`article[data-feed="${name}"]`);

/** The ticks per second a page shows (`1.234,5` in Spanish). */
async function ticksPerSecond(page: Page): Promise<number> {
  const text = await page.locator('[data-field="tps"]').first().innerText();
  return Number(text.replaceAll('.', '').replace(',', '.'));
}

test.describe('admin status pages', () => {
  test('the admin home shows both feeds running, the processes, and links to the data centers', async ({ page }) => {
    await signInAsAdmin(page);
    await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Admin', exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();
    for (const name of ['tv', 'rofex'] as const) {
      await expect(feedCard(page, name).locator('[data-state]')).toHaveAttribute('data-state', 'running');
      await expect(feedCard(page, name)).toContainText('En marcha');
    }
    await expect(page.getByRole('heading', { name: 'Procesos' })).toBeVisible();
    await expect(page.locator('[data-field="signed-in"]')).not.toHaveText('—');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.locator('[data-field="problems"]')).toHaveText(/^Todo en orden/);

    // Each data center from the home and from the sidebar.
    await page.getByRole('link', { name: 'Abrir data center TV' }).click();
    await expect(page).toHaveURL(/\/admin\/datacenter\/tv$/);
    await expect(page.getByRole('heading', { name: 'Data center TV', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Ruta' })).toContainText('Admin');
    const sidebar = page.getByRole('navigation', { name: 'Menú principal' });
    await sidebar.getByRole('link', { name: 'Data center ROFEX' }).click();
    await expect(page.getByRole('heading', { name: 'Data center ROFEX', level: 1 })).toBeVisible();
    await expect(page.locator('[data-field="source"]')).toHaveText('Simulador');
    await sidebar.getByRole('link', { name: 'Logs de operadores' }).click();
    await expect(page.getByRole('heading', { name: 'Logs de operadores', level: 1 })).toBeVisible();
    await page.getByRole('navigation', { name: 'Ruta' }).getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('stops the tv feed from its page (confirmed), seen on another admin home; starts it again; its rate moves ticks per second', async ({
    page,
    browser,
  }) => {
    // Three waits of a few seconds each for the 5-second rate to move.
    test.setTimeout(90_000);
    await signInAsAdmin(page);
    const watcher = await otherAdmin(browser);
    await watcher.goto(ROUTES.home);
    await expect(feedCard(watcher, 'tv').locator('[data-state]')).toHaveAttribute('data-state', 'running');

    await page.goto(ROUTES.tv);
    try {
      // Cancel first: nothing stops.
      await page.getByRole('button', { name: 'Detener feed' }).click();
      const confirm = page.getByRole('alertdialog', { name: '¿Estas seguro?' });
      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: 'No, cancelar' }).click();
      await expect(confirm).toBeHidden();
      await expect(feedCard(page, 'tv').locator('[data-state]')).toHaveAttribute('data-state', 'running');

      await page.getByRole('button', { name: 'Detener feed' }).click();
      await confirm.getByRole('button', { name: 'Sí, detener' }).click();
      await expect(feedCard(page, 'tv').locator('[data-state]')).toHaveAttribute('data-state', 'stopped');
      await expect(page.getByRole('button', { name: 'Iniciar feed' })).toBeVisible();
      // The other admin's home, polling, shows it stopped and standing out; rofex still runs.
      await expect(feedCard(watcher, 'tv').locator('[data-state]')).toHaveAttribute('data-state', 'stopped');
      await expect(feedCard(watcher, 'tv')).toHaveClass(/status-card--problem/);
      await expect(watcher.getByRole('alert')).toHaveText('Atención: el data center TV está detenido.');
      await expect(feedCard(watcher, 'rofex').locator('[data-state]')).toHaveAttribute('data-state', 'running');
      // Stopped, the feed makes no ticks: its recent rate falls to zero.
      await expect.poll(() => ticksPerSecond(page), { timeout: 15_000 }).toBe(0);

      await page.getByRole('button', { name: 'Iniciar feed' }).click();
      await expect(feedCard(page, 'tv').locator('[data-state]')).toHaveAttribute('data-state', 'running');
      await expect(feedCard(watcher, 'tv').locator('[data-state]')).toHaveAttribute('data-state', 'running');

      // A new pace: ticks per second follow it, up and down.
      const rate = page.getByLabel('Ritmo (ticks por segundo)');
      await rate.fill('200');
      await page.getByRole('button', { name: 'Aplicar' }).click();
      await expect(rate).toHaveValue('200');
      await expect.poll(() => ticksPerSecond(page), { timeout: 20_000 }).toBeGreaterThan(150);
      await rate.fill('10');
      await page.getByRole('button', { name: 'Aplicar' }).click();
      await expect.poll(() => ticksPerSecond(page), { timeout: 20_000 }).toBeLessThan(20);
      await expect(feedCard(watcher, 'tv').locator('[data-field="tps"]')).not.toHaveText('0');
    } finally {
      // Leave the feed as the other tests expect it.
      const token = await storedToken(page);
      await page.request.post('/api/admin/feeds/tv/start', { headers: { authorization: `Bearer ${token}` } });
      await page.request.put('/api/admin/feeds/tv', { headers: { authorization: `Bearer ${token}` }, data: { rate: 50 } });
      await watcher.context().close();
    }
  });

  test('filters the logs by user and action, shows a row, and exports the CSV of what matches', async ({ page, browser }) => {
    // demo signs in twice and out once: rows of several actions.
    const demo = await (await browser.newContext()).newPage();
    await signIn(demo, DEMO);
    await expect(demo.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
    await demo.context().close();
    const again = await (await browser.newContext()).newPage();
    await signIn(again, DEMO);
    await expect(again.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
    await again.context().close();

    await signInAsAdmin(page);
    await page.goto(ROUTES.logs);
    await expect(page.locator('tr[data-log-id]').first()).toBeVisible();
    await page.getByLabel('Usuario', { exact: true }).fill('demo');
    await page.getByLabel('Acción').selectOption('login');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect(page).toHaveURL(/user=demo/);
    await expect(page).toHaveURL(/action=login/);
    const rows = page.locator('tr[data-log-id]');
    await expect(rows.first()).toBeVisible();
    await expect(page.locator('tr[data-log-id]:not([data-action="login"])')).toHaveCount(0);
    const shown = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-log-id')));
    expect(shown.length).toBeGreaterThanOrEqual(2);
    await expect(rows.locator('td:nth-child(2)')).toHaveText(shown.map(() => 'demo'));

    // A row's details.
    await rows.first().click();
    const details = page.getByRole('dialog', { name: 'Detalle de la acción' });
    await expect(details).toContainText(shown[0]!);
    await expect(details).toContainText('(login)');
    await details.getByRole('button', { name: 'Cerrar' }).click();
    await expect(details).toBeHidden();

    // The export: the same rows, in the same order, named by the day.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^logs-operadores-\d{4}-\d{2}-\d{2}\.csv$/);
    const records = csvRecords(await readFile((await download.path())!, 'utf8'));
    expect(records.map((record) => record.id)).toEqual(shown);
    expect(records.every((record) => record.usuario === 'demo' && record.accion === 'login')).toBe(true);

    // A filter nothing matches: the empty state says so.
    await page.getByLabel('Desde').fill('2000-01-01');
    await page.getByLabel('Hasta').fill('2000-01-02');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect(page.getByText('Ninguna acción coincide con los filtros')).toBeVisible();
  });

  // One test a page: four sign-ins and four redirects in one test's 30 s failed on a loaded CI
  // machine (the last sign-in still loading), with nothing wrong but the time.
  for (const [name, path] of Object.entries(ROUTES)) {
    test(`a user who is not an admin is sent to sign-in from the ${name} page, and their token is dropped`, async ({ page }) => {
      await signIn(page, DEMO);
      await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/auth/signin\\?next=${encodeURIComponent(path).replaceAll('/', '%2F')}$`));
      await expect(page.getByRole('button', { name: 'Ingresar' })).toBeVisible();
      expect(await storedToken(page)).toBeNull();
    });
  }

  for (const mode of ['dark', 'light'] as const) {
    test(`axe finds nothing serious or critical on the four pages (${mode})`, async ({ page }) => {
      // A sign-in, four pages and four axe runs (each a few seconds on a loaded machine).
      test.setTimeout(90_000);
      await page.addInitScript((value) => localStorage.setItem('darkMode', value), mode);
      await signInAsAdmin(page);
      for (const [name, path] of Object.entries(ROUTES)) {
        await page.goto(path);
        await expect(page.locator('h1')).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
        // Wait for the first answer (the cards or the rows), so axe sees the filled page.
        await expect(page.locator('.status-card, tr[data-log-id]').first()).toBeVisible();
        const results = await new AxeBuilder({ page }).include('.admin-page').analyze();
        const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
        expect(
          serious.map((violation) => `${name}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
          name,
        ).toEqual([]);
      }
    });
  }
});
