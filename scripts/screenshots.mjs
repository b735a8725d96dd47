// npm run screenshots: builds the app, starts its own server on a free port with a temporary
// DATA_DIR (demo gets the server's sample visores), and writes PNGs of the main screens in
// light and dark mode to docs/screenshots/, and the web manifest's two screenshots (the install
// dialog's, in the default dark mode) to public/screenshots/. `npm run screenshots:pwa` (--pwa)
// writes only the manifest's.
import { spawn, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const OUT = path.resolve('docs/screenshots');
/** The manifest's screenshots (vite.config.ts names them and their sizes). */
const PWA_OUT = path.resolve('public/screenshots');
const PWA_ONLY = process.argv.includes('--pwa');
const DEMO = { username: 'demo', password: 'demo1234' };
const ADMIN = { username: 'admin', password: 'admin1234' };

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url, child) {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (child.exitCode != null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('server did not start');
}

async function api(base, method, url, body, token) {
  const response = await fetch(`${base}/api${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The seeded visor the visor screen is shown with: it holds every section type. */
const VISOR_TITLE = 'Dólar: futuros y MEP';
/** The visor screen's shots are as tall as that visor's grid. */
const VISOR_VIEWPORT = { width: 1280, height: 1900 };

/** A visor node of the tree by its name, in any folder. */
function findVisor(nodes, name) {
  for (const node of nodes) {
    if (node.visor_id != null && node.name === name) return node;
    const found = findVisor(node.sub ?? [], name);
    if (found) return found;
  }
  return null;
}

/**
 * The server gave demo its sample visores in folders at start (server/workspace/demoVisores.ts):
 * home, search and the sidebar show those. One of them is made public, for the visor screen
 * in edit and public mode.
 */
async function seed(base) {
  const { token, user } = await api(base, 'POST', '/login', DEMO);
  const { data: tree } = await api(base, 'GET', `/visores/${user._id}/folders`, undefined, token);
  const visor = findVisor(tree, VISOR_TITLE);
  if (!visor) throw new Error(`demo has no sample visor "${VISOR_TITLE}": was the database seeded (SEED_DEMO_USERS)?`);
  await api(base, 'PUT', `/visores/${visor.visor_id}/check_option`, { option: 'public', value: true }, token);
  return { visorId: visor.visor_id };
}

/** Every quote row and formula card of the visor shows a live value (not the first paint's dashes). */
async function live(page) {
  await page.waitForFunction(
    () => {
      const rows = [...document.querySelectorAll('[role="row"][data-symbol], [role="row"][data-formula], .vs-formula-card')];
      return rows.length > 0 && rows.every((row) => row.dataset.stale === 'false');
    },
    undefined,
    { timeout: 15_000, polling: 100 },
  );
}

/** Every chart drew its history, the curve lists its months with prices, and the positions show their live marks. */
async function sectionsDrawn(page) {
  await page.waitForFunction(
    () => {
      const charts = [...document.querySelectorAll('[data-mode]')];
      const curves = [...document.querySelectorAll('.vs-curve')];
      return (
        charts.length > 0 &&
        charts.every((chart) => Number(chart.dataset.bars ?? 0) > 0) &&
        // A curve has its rows and the spot's price (its rates come with it).
        curves.every((curve) => curve.querySelector('tbody tr') != null && /\d/.test(curve.querySelector('[data-field="spot"]')?.textContent ?? '')) &&
        [...document.querySelectorAll('.vs-pos-table tr[data-symbol]')].every((row) => row.dataset.live === 'true')
      );
    },
    undefined,
    { timeout: 20_000, polling: 100 },
  );
}

/**
 * Progress bar gone, fonts loaded and every image on screen drawn, lazy ones included (the emoji picker loads
 * its images lazily as they scroll into view). 'networkidle' never comes: the app keeps its
 * sockets open.
 */
async function settled(page) {
  await page.evaluate(() => document.fonts.ready);
  // The navigation progress bar has run out.
  await page.locator('.nav-progress--idle').waitFor({ state: 'attached' });
  await page.waitForFunction(
    () => {
      const onScreen = (element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || box.bottom <= 0 || box.right <= 0 || box.top >= innerHeight || box.left >= innerWidth) return false;
        // Inside every scrolling ancestor's visible area (the picker's list scrolls).
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          if (parent.scrollHeight <= parent.clientHeight) continue;
          const area = parent.getBoundingClientRect();
          if (box.bottom <= area.top || box.top >= area.bottom) return false;
        }
        return true;
      };
      return [...document.images].filter(onScreen).every((image) => image.complete && image.naturalWidth > 0);
    },
    undefined,
    { timeout: 15_000, polling: 100 },
  );
}

/** The install dialog's screenshots: a visor on a wide screen, Inicio on a phone, as demo in dark mode. */
async function pwaShots(browser, base, visorId) {
  mkdirSync(PWA_OUT, { recursive: true });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 720 }, colorScheme: 'dark', serviceWorkers: 'block' });
  const page = await context.newPage();
  const shot = async (name) => {
    await settled(page);
    await page.screenshot({ path: path.join(PWA_OUT, `${name}.png`) });
    console.log(`public/screenshots/${name}.png`);
  };
  await page.goto('/auth/signin');
  await page.getByLabel('Usuario').fill(DEMO.username);
  await page.getByLabel('Contraseña').fill(DEMO.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.getByRole('heading', { name: 'Inicio', level: 1 }).waitFor();
  await page.goto(`/visor/${visorId}/public`);
  await page.getByRole('article', { name: 'Dólares implícitos' }).waitFor();
  await live(page);
  await sectionsDrawn(page);
  await shot('wide');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('heading', { name: 'Inicio', level: 1 }).waitFor();
  await page
    .getByRole('link', { name: /Dólar: futuros y MEP/ })
    .first()
    .waitFor();
  await shot('narrow');
  await context.close();
}

async function main() {
  execSync('npx vite build', { stdio: 'inherit' });
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-shots-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn('npx', ['tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: 'dist', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    // Its own process group: npx starts tsx, which starts node; stopping the group stops all three.
    detached: true,
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    await waitForServer(base, server);
    const { visorId } = await seed(base);
    await pwaShots(browser, base, visorId);
    for (const mode of PWA_ONLY ? [] : ['light', 'dark']) {
      const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 }, colorScheme: mode });
      await context.addInitScript((darkMode) => localStorage.setItem('darkMode', darkMode), mode);
      const page = await context.newPage();
      const shot = async (name) => {
        await settled(page);
        await page.screenshot({ path: path.join(OUT, `${name}-${mode}.png`) });
        console.log(`docs/screenshots/${name}-${mode}.png`);
      };

      await page.goto('/auth/signin');
      await page.getByLabel('Usuario').waitFor();
      await shot('signin');
      await page.getByLabel('Usuario').fill(DEMO.username);
      await page.getByLabel('Contraseña').fill(DEMO.password);
      await page.getByRole('button', { name: 'Ingresar' }).click();
      await page.getByRole('heading', { name: 'Inicio', level: 1 }).waitFor();
      await page
        .getByRole('link', { name: /Dólar: futuros y MEP/ })
        .first()
        .waitFor();
      await shot('home');

      await page.getByRole('button', { name: 'Buscar' }).click();
      await page.getByPlaceholder('Search or hit ESC..').fill('bonos');
      await shot('search-overlay');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Búsqueda', level: 1 }).waitFor();
      await page.getByText(VISOR_TITLE, { exact: true }).first().waitFor();
      await shot('search-results');

      // The workspace: a folder open in the sidebar, the Visor modal with its emoji picker,
      // then its colour picker.
      await page.getByRole('list', { name: 'Espacio de trabajo' }).locator('.tree__folder').first().click();
      await page.getByRole('button', { name: 'Crear en Espacio de trabajo' }).click();
      await page.getByRole('menuitem', { name: 'Visor' }).click();
      const modal = page.getByRole('dialog', { name: 'Visor' });
      await modal.getByPlaceholder('Título del visor').fill('Dólar futuro');
      await modal.getByRole('button', { name: 'Emoji', exact: true }).click();
      await page.getByRole('dialog', { name: 'Selector de emoji' }).getByRole('gridcell').first().waitFor();
      await shot('visor-modal-emoji');
      await page.getByPlaceholder('Search emoji').press('Escape');
      await modal.getByRole('button', { name: 'Elegir color' }).click();
      await shot('visor-modal-color');
      await modal.getByRole('button', { name: 'Cerrar' }).click();

      // The visor screen (issues 18 and 19), every section type: edit mode (the owner's positions
      // on the paper broker), then public mode.
      await page.setViewportSize(VISOR_VIEWPORT);
      await page.goto(`/visor/${visorId}/edit`);
      await page.getByRole('article', { name: 'Dólares implícitos' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Guardado' }).waitFor();
      await page.locator('.vs-pos-table tr[data-symbol]').first().waitFor({ timeout: 20_000 });
      await live(page);
      await sectionsDrawn(page);
      await shot('visor-edit');
      await page.goto(`/visor/${visorId}/public`);
      await page.getByRole('article', { name: 'Dólares implícitos' }).waitFor();
      await live(page);
      await sectionsDrawn(page);
      await shot('visor-public');
      await page.setViewportSize({ width: 1280, height: 800 });

      await page.goto('/config/profile');
      await page.getByRole('heading', { name: 'Perfil', level: 1 }).waitFor();
      await shot('profile');

      await page.getByRole('button', { name: 'Apariencia' }).click();
      await page.getByRole('dialog', { name: 'Apariencia' }).waitFor();
      await shot('settings');
      await page.keyboard.press('Escape');

      await page.goto('/no-existe');
      await page.getByText('404').waitFor();
      await shot('not-found');

      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto('/');
      await page.getByRole('heading', { name: 'Inicio', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Mostrar u ocultar el menú' }).click();
      // The end of the slide-in transition.
      await page.waitForFunction(() => {
        const box = document.querySelector('nav.sidebar')?.getBoundingClientRect();
        return box != null && box.left >= 0;
      });
      await shot('mobile-sidebar');
      await context.close();

      // The admin's screens (issue 20), signed in as admin.
      const adminContext = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 }, colorScheme: mode });
      await adminContext.addInitScript((darkMode) => localStorage.setItem('darkMode', darkMode), mode);
      const adminPage = await adminContext.newPage();
      const adminShot = async (name) => {
        await settled(adminPage);
        await adminPage.screenshot({ path: path.join(OUT, `${name}-${mode}.png`) });
        console.log(`docs/screenshots/${name}-${mode}.png`);
      };
      await adminPage.goto('/auth/signin');
      await adminPage.getByLabel('Usuario').fill(ADMIN.username);
      await adminPage.getByLabel('Contraseña').fill(ADMIN.password);
      await adminPage.getByRole('button', { name: 'Ingresar' }).click();
      await adminPage.waitForURL((url) => !url.pathname.startsWith('/auth'));
      const adminScreens = [
        ['admin-home', '/admin', 'Admin'],
        ['admin-datacenter-tv', '/admin/datacenter/tv', 'Data center TV'],
        ['admin-datacenter-rofex', '/admin/datacenter/rofex', 'Data center ROFEX'],
        ['admin-logs', '/admin/datacenter/logs-operadores', 'Logs de operadores'],
        ['admin-users', '/users', 'Usuarios'],
        ['admin-positions', '/posiciones', 'Posiciones'],
      ];
      for (const [name, address, title] of adminScreens) {
        await adminPage.goto(address);
        await adminPage.getByRole('heading', { name: title, level: 1 }).waitFor();
        // The first answers of the page's queries (its tables or cards, not their loading state).
        await adminPage.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Cargando'), undefined, { timeout: 15_000 });
        await adminShot(name);
      }
      await adminContext.close();
    }
  } finally {
    await browser.close();
    process.kill(-server.pid, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
