// A visor deleted elsewhere while this tab has it open (issue 21, "no edit is lost or applied
// twice"): deleted on another device whose change this browser has not heard of (here, through
// the API with this browser's own session, which the server does not push to), the next change
// of it is answered 410; the screen says the visor was deleted, one toast says the change was
// not saved, the sidebar no longer lists it, and nothing is sent again. Deleted from the
// sidebar of another tab of this browser, the open tab says so at once. A delete of a visor
// deleted elsewhere already is done, not an error.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { VISOR_DELETED, VISOR_GONE_MESSAGE } from '../../src/features/visor/saveMessages';
import { signIn, storedToken } from './helpers';
import { newUser, type Account } from './shellHelpers';
import { expectSaved, login, renameSection, section, seedVisor } from './visorHelpers';
import { create, favouritesSection, row, rowAction, workspaceTree } from './workspaceHelpers';

test.describe.configure({ timeout: 60_000 });

/**
 * Another device whose change this browser did not hear of (pushed changes lost, or not there
 * yet): the same user through the API, with this browser's own session, which the server's
 * push leaves out as the writer's. The change comes to this browser only as the next write's 410.
 */
async function asAnotherDevice(request: APIRequestContext, account: Account, page: Page | null) {
  const { user, token: own } = await login(request, account);
  // Before this browser signs in there is nothing to push to: a session of its own does.
  const token = page ? await storedToken(page) : own;
  expect(token).not.toBeNull();
  const headers = { authorization: `Bearer ${token}` };
  return {
    async favourite(visorId: string) {
      const answer = await request.put(`/api/visores/${user._id}/${visorId}/fav`, { headers });
      expect(answer.ok(), await answer.text()).toBe(true);
    },
    async delete(visorId: string) {
      const answer = await request.delete(`/api/visores/${visorId}`, { headers });
      expect(answer.ok(), await answer.text()).toBe(true);
    },
  };
}

/** Counts, from now on, the toasts of the page that say `text` (each one once, however long it stays). */
async function countToasts(page: Page, text: string): Promise<() => Promise<number>> {
  await page.evaluate((wanted) => {
    const counted = new WeakSet<Element>();
    const seen = { toasts: 0 };
    (window as unknown as { goneToasts: typeof seen }).goneToasts = seen;
    const look = () => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        if (counted.has(toast) || !toast.textContent?.includes(wanted)) continue;
        counted.add(toast);
        seen.toasts += 1;
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, text);
  return () => page.evaluate(() => (window as unknown as { goneToasts: { toasts: number } }).goneToasts.toasts);
}

const deletedState = (page: Page) => page.getByRole('alert').filter({ has: page.getByRole('heading', { name: VISOR_DELETED }) });

test('an autosave of a visor deleted on another device: the deleted state, one toast, out of the sidebar, and no save sent again', async ({
  page,
  request,
}) => {
  // Playwright does not see a SharedWorker's requests: the data worker runs as a dedicated
  // Worker (the fallback where SharedWorker is missing), whose requests it sees.
  await page.addInitScript(() => {
    delete (window as { SharedWorker?: unknown }).SharedWorker;
  });
  // The page's timers on a clock the test can move on (time flows as usual until it does).
  await page.clock.install();
  const saves: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'PUT' && new URL(sent.url()).pathname.endsWith('/update_secciones')) saves.push(sent.url());
  });
  const account = await newUser(request, 'gone');
  const visorId = await seedVisor(request, account, 'Se borra lejos');
  const other = await seedVisor(request, account, 'Otro');
  await (await asAnotherDevice(request, account, null)).favourite(visorId);
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await expect(section(page, 'Uno')).toBeVisible();
  await expectSaved(page);
  await expect(row(workspaceTree(page), 'Se borra lejos')).toBeVisible();
  await expect(row(favouritesSection(page), 'Se borra lejos')).toBeVisible();
  const toasts = await countToasts(page, VISOR_GONE_MESSAGE);

  await (await asAnotherDevice(request, account, page)).delete(visorId);
  await renameSection(page, 'Uno', 'Uno después');

  await expect(deletedState(page)).toBeVisible();
  await expect(page.getByText('Cargando…')).toHaveCount(0);
  await expect(page.getByText(VISOR_GONE_MESSAGE)).toBeVisible();
  await expect(row(workspaceTree(page), 'Se borra lejos')).toHaveCount(0);
  await expect(row(favouritesSection(page), 'Se borra lejos')).toHaveCount(0);
  // A save tried again would leave at most RETRY_DELAY_MS (5 s, useVisorSections.ts; the module is
  // the tab's, not importable here) after the refusal: the page's clock goes past it at once. Then
  // a write that queues behind any such save in the worker (its calls run one at a time, in
  // order): once that write's request is out, a save sent again would have left before it.
  await page.clock.runFor(6000);
  const favourite = page.waitForRequest((sent) => sent.method() === 'PUT' && new URL(sent.url()).pathname.endsWith(`/${other}/fav`));
  await rowAction(workspaceTree(page), 'Otro', 'Agregar a Favoritos');
  await favourite;
  expect(saves).toHaveLength(1);
  expect(await toasts()).toBe(1);
  await expect(deletedState(page)).toBeVisible();
  // The change will never land: no pending draft of it is left to send from a later screen.
  const drafts = await page.evaluate(
    (id) =>
      new Promise<number>((resolve, reject) => {
        const opened = indexedDB.open('visores');
        opened.onerror = () => reject(opened.error);
        opened.onsuccess = () => {
          const query = opened.result.transaction('visorDrafts').objectStore('visorDrafts').getAll();
          query.onsuccess = () => resolve((query.result as { visor_id: string }[]).filter((draft) => draft.visor_id === id).length);
          query.onerror = () => reject(query.error);
        };
      }),
    visorId,
  );
  expect(drafts).toBe(0);
});

test('a favourite toggled on a visor deleted on another device: the deleted state and the server’s message, once', async ({ page, request }) => {
  const account = await newUser(request, 'gone');
  const visorId = await seedVisor(request, account, 'Favorito borrado');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await expect(section(page, 'Uno')).toBeVisible();
  const toasts = await countToasts(page, 'El visor ya se borró');

  await (await asAnotherDevice(request, account, page)).delete(visorId);
  await page.getByRole('button', { name: 'Agregar a Favoritos' }).click();

  await expect(deletedState(page)).toBeVisible();
  await expect(page.getByText('El visor ya se borró')).toBeVisible();
  await expect(row(workspaceTree(page), 'Favorito borrado')).toHaveCount(0);
  await expect(row(favouritesSection(page), 'Favorito borrado')).toHaveCount(0);
  expect(await toasts()).toBe(1);
});

test('deleted from the sidebar of another tab: the tab that has it open shows it deleted', async ({ page, context, request }) => {
  const account = await newUser(request, 'gone');
  const visorId = await seedVisor(request, account, 'Se borra aquí');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  const open = await context.newPage();
  await open.goto(`/visor/${visorId}/edit`);
  await expect(section(open, 'Uno')).toBeVisible();
  await expectSaved(open);

  await rowAction(workspaceTree(page), 'Se borra aquí', 'Eliminar');
  await page.getByRole('button', { name: 'Si, borrar' }).click();
  await expect(row(workspaceTree(page), 'Se borra aquí')).toHaveCount(0);

  await expect(deletedState(open)).toBeVisible();
  await expect(open.getByText('Cargando…')).toHaveCount(0);
  await expect(row(workspaceTree(open), 'Se borra aquí')).toHaveCount(0);
});

test('deleting from the sidebar a visor another device deleted already: it leaves the sidebar, with no error', async ({ page, request }) => {
  const account = await newUser(request, 'gone');
  const visorId = await seedVisor(request, account, 'Ya borrado');
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await expect(row(workspaceTree(page), 'Ya borrado')).toBeVisible();
  const errors = await countToasts(page, 'El visor ya se borró');

  await (await asAnotherDevice(request, account, page)).delete(visorId);
  await rowAction(workspaceTree(page), 'Ya borrado', 'Eliminar');
  await page.getByRole('button', { name: 'Si, borrar' }).click();

  await expect(row(workspaceTree(page), 'Ya borrado')).toHaveCount(0);
  // The worker answers its calls in the order asked: once a folder made after the delete shows,
  // the delete's answer reached the tab (an error would be a toast by then).
  await create(page, 'Carpeta', 'Después');
  await expect(row(workspaceTree(page), 'Después')).toBeVisible();
  expect(await errors()).toBe(0);
});
