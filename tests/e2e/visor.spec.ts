// The visor screen (issue 18), as a person does it: create a visor and open it, add a section,
// move and resize it, reload and find it as left; two tabs editing different sections; two
// devices changing the same one (the 412 the server wins); sharing with `Público`, a second
// user opening the public link read-only and cloning it; the not-found state of a private
// visor; a visor seen before opening with the network off.
import { expect, test, type Page } from '@playwright/test';
import { SERVER_WON_MESSAGE } from '../../src/features/visor/saveMessages';
import { signIn } from './helpers';
import { newUser } from './shellHelpers';
import { expectSaved, renameSection, section, seedVisor } from './visorHelpers';
import { create, row, workspaceTree } from './workspaceHelpers';

test.describe.configure({ timeout: 60_000 });

async function openFromTree(page: Page, title: string): Promise<string> {
  await row(workspaceTree(page), title).first().getByRole('link').click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  return new URL(page.url()).pathname.split('/')[2]!;
}

async function box(page: Page, title: string) {
  const found = await section(page, title).boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

test('creates a visor, adds a section, moves and resizes it, and finds it as left after a reload', async ({ page, request }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, await newUser(request, 'vis'));
  await create(page, 'Visor', 'Mi tablero');
  const visorId = await openFromTree(page, 'Mi tablero');
  await expect(page).toHaveURL(new RegExp(`/visor/${visorId}/edit$`));
  await expect(page.getByText('Este visor no tiene secciones.', { exact: false })).toBeVisible();

  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: 'Fórmulas' }).click();
  await expect(section(page, 'Fórmulas')).toBeVisible();
  await renameSection(page, 'Fórmulas', 'Dólares');
  await expectSaved(page);

  // Move it by its header to the right half, then make it taller by its corner.
  const before = await box(page, 'Dólares');
  const header = section(page, 'Dólares').locator('.section-frame__grip');
  const grip = (await header.boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + before.width / 2 + 40, grip.y + grip.height / 2, { steps: 10 });
  await page.mouse.move(grip.x + before.width + 20, grip.y + grip.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect.poll(async () => (await box(page, 'Dólares')).x).toBeGreaterThan(before.x + before.width / 2);

  // The grid slides the section into its place (a CSS transition): the corner is measured once it is there.
  const item = page.locator('.react-grid-item', { has: section(page, 'Dólares') });
  await expect.poll(() => item.evaluate((element) => element.getAnimations().length)).toBe(0);
  const corner = item.locator('.react-resizable-handle-se');
  const handle = (await corner.boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2, handle.y + 120, { steps: 10 });
  await page.mouse.move(handle.x + handle.width / 2, handle.y + 200, { steps: 10 });
  await page.mouse.up();
  await expect.poll(async () => (await box(page, 'Dólares')).height).toBeGreaterThan(before.height + 100);
  // Its place in grid units once the resize is in the sections (from then on the state says
  // Guardando… until it is saved): moved off the left edge, taller than the 6 rows a new one gets.
  const layout = () => section(page, 'Dólares').getAttribute('data-layout');
  await expect.poll(async () => Number((await layout())!.split(',')[3])).toBeGreaterThan(6);
  await expectSaved(page);
  const left = await layout();
  const [x, , , h] = left!.split(',').map(Number);
  expect(x).toBeGreaterThan(0);
  expect(h).toBeGreaterThan(6);

  await page.reload();
  await expect(section(page, 'Dólares')).toHaveAttribute('data-layout', left!);
  await expect.poll(async () => Math.round((await box(page, 'Dólares')).x)).toBeGreaterThan(Math.round(before.x + before.width / 2));
});

test('two tabs edit different sections of one visor at once and neither change is lost', async ({ page, context, request }) => {
  const account = await newUser(request, 'vis');
  const visorId = await seedVisor(request, account, 'Compartido');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  const other = await context.newPage();
  await page.goto(`/visor/${visorId}/edit`);
  await other.goto(`/visor/${visorId}/edit`);
  await expect(section(page, 'Uno')).toBeVisible();
  await expect(section(other, 'Dos')).toBeVisible();

  // Both change before either autosave leaves.
  await renameSection(page, 'Uno', 'Uno de A');
  await renameSection(other, 'Dos', 'Dos de B');

  for (const tab of [page, other]) {
    await expect(section(tab, 'Uno de A')).toBeVisible();
    await expect(section(tab, 'Dos de B')).toBeVisible();
    await expectSaved(tab);
  }
  await page.reload();
  await expect(section(page, 'Uno de A')).toBeVisible();
  await expect(section(page, 'Dos de B')).toBeVisible();
});

test('two devices change the same section at once: the later save loses to the server, says so, and both show what the server kept', async ({
  page,
  browser,
  request,
}) => {
  const account = await newUser(request, 'vis');
  const visorId = await seedVisor(request, account, 'En disputa');
  // Another device: a browser context of its own (its own worker and cache), the same user,
  // in a browser without SharedWorker (the app's dedicated-worker path): Playwright's routing
  // sees a dedicated worker's requests, not a shared worker's.
  const otherContext = await browser.newContext();
  await otherContext.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
  const other = await otherContext.newPage();
  try {
    for (const tab of [page, other]) {
      await signIn(tab, account);
      await expect(tab.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
      await tab.goto(`/visor/${visorId}/edit`);
      await expect(section(tab, 'Uno')).toBeVisible();
    }

    // B's save is held on its way until A's is in: it leaves with the version both started
    // from, so the server answers 412 and B finds its section changed by A.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached: () => void = () => {};
    const sent = new Promise<void>((resolve) => (reached = resolve));
    await otherContext.route('**/update_secciones', async (route) => {
      reached();
      await held;
      await route.continue();
    });
    await renameSection(other, 'Uno', 'Uno de B');
    await sent;
    await renameSection(page, 'Uno', 'Uno de A');
    await expectSaved(page);
    release();

    await expect(other.getByText(SERVER_WON_MESSAGE)).toBeVisible();
    for (const tab of [other, page]) {
      await expect(section(tab, 'Uno de A')).toBeVisible();
      await expect(section(tab, 'Uno de B')).toHaveCount(0);
      await expect(section(tab, 'Dos')).toBeVisible();
      await expectSaved(tab);
    }
    await expect(page.getByText(SERVER_WON_MESSAGE)).toHaveCount(0);
    // What both show is the server's: a reload finds the same.
    await other.reload();
    await expect(section(other, 'Uno de A')).toBeVisible();
    await expect(section(other, 'Uno de B')).toHaveCount(0);
  } finally {
    await otherContext.close();
  }
});

test('Público shares the link; another user opens it read-only, clones it and finds the copy in their tree', async ({ page, browser, request }) => {
  const owner = await newUser(request, 'vis');
  const visorId = await seedVisor(request, owner, 'Para compartir');
  await signIn(page, owner);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  const publico = page.getByRole('switch', { name: 'Público' });
  await expect(publico).not.toBeChecked();
  await publico.click();
  await expect(page.getByText(`/visor/${visorId}/public`, { exact: false })).toBeVisible();
  await expect(publico).toBeChecked();

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await signIn(visitor, await newUser(request, 'vis'));
  await expect(visitor.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  // The edit link sends a non-owner to public mode.
  await visitor.goto(`/visor/${visorId}/edit`);
  await expect(visitor).toHaveURL(new RegExp(`/visor/${visorId}/public$`));
  await expect(visitor.getByRole('heading', { name: 'Para compartir', level: 1 })).toBeVisible();
  await expect(section(visitor, 'Uno')).toBeVisible();
  await expect(visitor.getByRole('textbox', { name: 'Título de la sección' })).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: 'Agregar sección' })).toHaveCount(0);
  await expect(visitor.getByRole('switch', { name: 'Público' })).toHaveCount(0);

  await visitor.getByRole('button', { name: 'Clonar' }).click();
  await expect(visitor).toHaveURL(/\/visor\/[^/]+\/edit$/);
  expect(visitor.url()).not.toContain(visorId);
  await expect(visitor.getByRole('heading', { name: 'Para compartir (copia)', level: 1 })).toBeVisible();
  await expect(section(visitor, 'Dos')).toBeVisible();
  await expect(row(workspaceTree(visitor), 'Para compartir (copia)')).toBeVisible();
  await visitorContext.close();
});

test('another user gets the not-found state for a private visor', async ({ page, request }) => {
  const owner = await newUser(request, 'vis');
  const visorId = await seedVisor(request, owner, 'Privado');
  await signIn(page, await newUser(request, 'vis'));
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  for (const path of [`/visor/${visorId}/edit`, `/visor/${visorId}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Este visor no existe o no es público' })).toBeVisible();
    await expect(page.getByText('Privado')).toHaveCount(0);
  }
});

test('a visor seen before opens with the network off, with the offline banner; edits stay on (the outbox keeps them)', async ({ page, context, request }) => {
  const account = await newUser(request, 'vis');
  await seedVisor(request, account, 'Sin red');
  await signIn(page, account);
  await openFromTree(page, 'Sin red');
  await expect(section(page, 'Uno')).toBeVisible();
  await page.getByRole('link', { name: 'Inicio' }).first().click();
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();

  await context.setOffline(true);
  await openFromTree(page, 'Sin red');
  await expect(section(page, 'Uno')).toBeVisible();
  await expect(section(page, 'Dos')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Sin conexión desde \d\d:\d\d/ })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Público' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Buscar' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Buscar' })).toHaveAttribute('title', 'Sin conexión: esta acción necesita el servidor');
  await context.setOffline(false);
});

test("Inicio's Recientes lists the visores this user opened, the latest first", async ({ page, request }) => {
  const account = await newUser(request, 'vis');
  await seedVisor(request, account, 'Primero');
  await seedVisor(request, account, 'Segundo');
  await signIn(page, account);
  await openFromTree(page, 'Segundo');
  await openFromTree(page, 'Primero');
  await page.getByRole('link', { name: 'Inicio' }).first().click();
  const cards = page.getByRole('region', { name: 'Recientes' }).getByRole('link');
  await expect(cards.first()).toContainText('Primero');
  await expect(cards.nth(1)).toContainText('Segundo');
  await expect(cards.first()).toContainText('Abierto el');
});

test('a section is duplicated, and deleted only on confirm; below 768 px sections stack in one column', async ({ page, request }) => {
  const account = await newUser(request, 'vis');
  const visorId = await seedVisor(request, account, 'Secciones');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await section(page, 'Uno').getByRole('button', { name: 'Duplicar sección' }).click();
  await expect(section(page, 'Uno (copia)')).toBeVisible();

  await section(page, 'Uno (copia)').getByRole('button', { name: 'Eliminar sección' }).click();
  const confirm = page.getByRole('alertdialog', { name: '¿Estas seguro?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'No, cancelar' }).click();
  await expect(section(page, 'Uno (copia)')).toBeVisible();
  await section(page, 'Uno (copia)').getByRole('button', { name: 'Eliminar sección' }).click();
  await page.getByRole('alertdialog', { name: '¿Estas seguro?' }).getByRole('button', { name: 'Si, borrar' }).click();
  await expect(section(page, 'Uno (copia)')).toHaveCount(0);
  await expectSaved(page);
  await page.reload();
  await expect(section(page, 'Dos')).toBeVisible();
  await expect(section(page, 'Uno (copia)')).toHaveCount(0);

  await page.setViewportSize({ width: 600, height: 900 });
  await expect(page.locator('.visor-grid__column')).toBeVisible();
  await expect(section(page, 'Dos')).toBeVisible();
  const first = await box(page, 'Uno');
  const second = await box(page, 'Dos');
  expect(second.y).toBeGreaterThan(first.y + first.height - 1);
  expect(Math.round(second.x)).toBe(Math.round(first.x));
  expect(Math.round(second.width)).toBe(Math.round(first.width));
});

test('a section added below the window comes into view with its settings open', async ({ page, request }) => {
  // A short window: the seeded sections fill it, so the new one lands below its bottom edge.
  await page.setViewportSize({ width: 1280, height: 420 });
  const account = await newUser(request, 'vis');
  const visorId = await seedVisor(request, account, 'Largo');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await expect(section(page, 'Dos')).toBeVisible();
  await page.getByRole('button', { name: 'Agregar sección' }).click();
  await page.getByRole('menuitem', { name: 'Cotizaciones' }).click();
  const added = section(page, 'Cotizaciones');
  await expect(added.getByRole('group', { name: 'Columnas' })).toBeVisible();
  await expect(added.getByRole('group', { name: 'Columnas' })).toBeInViewport();
});

test('the owner edits the title through the Visor modal, marks it favourite and switches Editar / Ver', async ({ page, request }) => {
  const account = await newUser(request, 'vis');
  const visorId = await seedVisor(request, account, 'Encabezado');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await page.getByRole('button', { name: 'Editar visor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Visor' });
  await expect(dialog.getByPlaceholder('Título del visor')).toHaveValue('Encabezado');
  await dialog.getByPlaceholder('Título del visor').fill('Encabezado nuevo');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('heading', { name: 'Encabezado nuevo', level: 1 })).toBeVisible();
  await expect(row(workspaceTree(page), 'Encabezado nuevo')).toBeVisible();

  await page.getByRole('button', { name: 'Agregar a Favoritos' }).click();
  await expect(page.getByRole('button', { name: 'Remover Favorito' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('navigation', { name: 'Menú principal' }).getByRole('region', { name: 'Favoritos' })).toContainText('Encabezado nuevo');

  await page.getByRole('link', { name: 'Ver', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/visor/${visorId}/public$`));
  await expect(section(page, 'Uno')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Título de la sección' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Editar', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/visor/${visorId}/edit$`));
  await expect(page.getByRole('textbox', { name: 'Título de la sección' }).first()).toBeVisible();
});
