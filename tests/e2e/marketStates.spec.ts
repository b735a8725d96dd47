// Stale and closed, said out loud: demo's Dólar visor is open in one browser; in another, an
// admin stops the ROFEX feed from its data center. Within seconds the visor says which feed
// stopped and since when, and marks ROFEX's rows, formula cards and curve stale as it does
// when the socket is down; BYMA's stay live. When the admin starts the feed again, the line
// and the marks go by themselves. Its own server: stopping a feed of the shared one would
// freeze the other specs' quotes.
import { expect, test } from '@playwright/test';
import { ADMIN, DEMO, expectHome, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';
import { section } from './visorHelpers';
import { favouritesSection } from './workspaceHelpers';

let server: OwnServer;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  server = await startOwnServer({ SIM_TICKS_PER_SECOND: '300' });
});

test.afterAll(async () => {
  await server?.stop();
});

test("an admin's stop of ROFEX is said on the visor and marks its rows stale within 5 s; both go when it starts again", async ({ browser }) => {
  const viewer = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const operator = await browser.newContext();
  try {
    const page = await viewer.newPage();
    await signIn(page, DEMO, `${server.url}/auth/signin`);
    await favouritesSection(page).getByText('Dólar: futuros y MEP').click();

    const board = section(page, 'Futuros de dólar y A3500');
    const future = board.locator('[role="row"][data-symbol^="DLR/"]').first();
    const spot = board.locator('[role="row"][data-symbol="DLR/SPOT"]');
    const mep = section(page, 'Dólares implícitos').locator('[data-formula="Dólar MEP"]');
    const gap = section(page, 'Dólares implícitos').locator('[data-formula="Brecha (MEP / A3500)"]');
    const line = page.locator('.visor-markets');
    await expect(future).toHaveAttribute('data-stale', 'false');
    await expect(spot).toHaveAttribute('data-stale', 'false');
    await expect(mep).toHaveAttribute('data-stale', 'false');
    // Every feed runs: the line only says the market is simulated.
    await expect(line).toHaveText(/^Mercado simulado/);
    await expect(line).toHaveAttribute('role', 'status');

    // The admin stops ROFEX from its data center, in a browser of their own.
    const admin = await operator.newPage();
    await signIn(admin, ADMIN, `${server.url}/auth/signin`);
    await expectHome(admin);
    await admin.goto(`${server.url}/admin/datacenter/rofex`);
    await admin.getByRole('button', { name: 'Detener feed' }).click();
    await admin.getByRole('alertdialog', { name: '¿Estas seguro?' }).getByRole('button', { name: 'Sí, detener' }).click();
    await expect(admin.locator('article[data-feed="rofex"] [data-state]')).toHaveAttribute('data-state', 'stopped');

    await expect(line).toHaveText(/^Datos de ROFEX y A3500 detenidos desde (\d\d\/\d\d )?\d\d:\d\d · Mercado simulado/, { timeout: 5000 });
    await expect(line).toHaveAttribute('data-tone', 'issue');
    for (const row of [future, spot]) {
      await expect(row).toHaveAttribute('data-stale', 'true', { timeout: 5000 });
      await expect(row.locator('.vs-row__note')).toHaveText(/^último \d\d:\d\d:\d\d$/);
    }
    // A formula with a ROFEX leg is stale; one of BYMA's alone goes on.
    await expect(gap).toHaveAttribute('data-stale', 'true');
    await expect(gap).toContainText(/Sin datos en vivo · último \d\d:\d\d:\d\d/);
    await expect(mep).toHaveAttribute('data-stale', 'false');
    await expect(section(page, 'Curva DLR: tasas implícitas').locator('tr[data-symbol^="DLR/"]').first()).toHaveAttribute('data-stale', 'true');
    const chart = page.locator('.vs-chart').first();
    await expect(chart).toHaveAttribute('data-stale', 'true');
    await expect(chart.locator('.vs-chart__stale')).toHaveText(/^Sin datos en vivo · último \d\d:\d\d:\d\d$/);
    // A position valued at a ROFEX price is marked too; one of BYMA's is live.
    const positions = page.locator('table.vs-pos-table');
    const rofexPosition = positions.locator('tr[data-symbol^="DLR/"]').first();
    await expect(rofexPosition).toHaveAttribute('data-stale', 'true');
    await expect(rofexPosition).toHaveAttribute('title', /^No está en vivo \(último \d\d:\d\d:\d\d\)$/);
    await expect(positions.locator('tr[data-symbol="MERV - XMEV - AL30 - 24hs"]')).toHaveAttribute('data-stale', 'false');
    // The totals that add them are not live either.
    const staleTotal = positions.locator('tfoot tr[data-stale="true"]');
    await expect(staleTotal).not.toHaveCount(0);
    await expect(staleTotal.first()).toHaveAttribute('title', 'Incluye precios que no están en vivo');

    // Started again: the marks and the line go by themselves.
    await admin.getByRole('button', { name: 'Iniciar feed' }).click();
    await expect(line).toHaveText(/^Mercado simulado/, { timeout: 5000 });
    for (const row of [future, spot]) await expect(row).toHaveAttribute('data-stale', 'false', { timeout: 5000 });
    await expect(gap).toHaveAttribute('data-stale', 'false');
    await expect(chart).toHaveAttribute('data-stale', 'false');
    await expect(rofexPosition).toHaveAttribute('data-stale', 'false');
    await expect(staleTotal).toHaveCount(0);
  } finally {
    await viewer.close();
    await operator.close();
  }
});
