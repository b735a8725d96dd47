// A section change made just before the tab reloads or closes is not lost (issue 18's
// autosave waits a second): every change is kept in Dexie at once as the visor's pending
// draft, and the visor screen that opens next takes it (moved onto a newer server version by
// the 412 rule when there is one) and saves it.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { newUser, type Account } from './shellHelpers';
import { expectSaved, login, section, seedVisor } from './visorHelpers';

test.describe.configure({ timeout: 60_000 });

/** The section titles the server has for the visor now (a fresh request, not the page's cache). */
async function serverTitles(request: APIRequestContext, account: Account, visorId: string): Promise<string[]> {
  const { token } = await login(request, account);
  const response = await request.get(`/api/visores/${visorId}/get`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), await response.text()).toBe(true);
  const body = (await response.json()) as { data: { secciones: { title: string }[] } };
  return body.data.secciones.map((item) => item.title).sort();
}

/** A new account's visor (sections Uno and Dos), open in edit mode and saved; then `name` is renamed to `to` (Enter), with no wait. */
async function openAndRename(page: Page, request: APIRequestContext, visor: string, name: string, to: string) {
  const account = await newUser(request, 'draft');
  const visorId = await seedVisor(request, account, visor);
  await signIn(page, account);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await expect(section(page, name)).toBeVisible();
  await expectSaved(page);
  const title = section(page, name).getByRole('textbox', { name: 'Título de la sección' });
  await title.fill(to);
  await title.press('Enter');
  return { account, visorId };
}

test('a section renamed right before a reload is there after it, and saved', async ({ page, request }) => {
  const { account, visorId } = await openAndRename(page, request, 'Recarga', 'Uno', 'Uno recargado');
  // No wait for the autosave, nor for the new title to show: the reload comes at once.
  await page.reload();

  await expect(section(page, 'Uno recargado')).toBeVisible();
  await expect(section(page, 'Dos')).toBeVisible();
  await expect.poll(() => serverTitles(request, account, visorId)).toEqual(['Dos', 'Uno recargado']);
  await expectSaved(page);
});

test('a section renamed right before its page closes is there in the next page of the visor, and saved', async ({ page, context, request }) => {
  const { account, visorId } = await openAndRename(page, request, 'Cierre', 'Dos', 'Dos cerrado');
  await page.close();

  const next = await context.newPage();
  await next.goto(`/visor/${visorId}/edit`);
  await expect(section(next, 'Dos cerrado')).toBeVisible();
  await expect(section(next, 'Uno')).toBeVisible();
  await expect.poll(() => serverTitles(request, account, visorId)).toEqual(['Dos cerrado', 'Uno']);
  await expectSaved(next);
});

test('a change left pending by a closed page is merged onto what the server got meanwhile, and saved', async ({ page, context, request }) => {
  const { account, visorId } = await openAndRename(page, request, 'Mientras tanto', 'Uno', 'Uno de la página');
  await page.close();

  // Another device renames the other section meanwhile (read, change, write: whatever reached the server stays).
  const { token } = await login(request, account);
  const headers = { authorization: `Bearer ${token}` };
  const read = await request.get(`/api/visores/${visorId}/get`, { headers });
  const { data } = (await read.json()) as { data: { secciones: { id: string; title: string }[]; version: number } };
  const secciones = data.secciones.map((item) => (item.id === 's2' ? { ...item, title: 'Dos de otro lado' } : item));
  const saved = await request.put(`/api/visores/${visorId}/update_secciones`, {
    data: { secciones },
    headers: { ...headers, 'if-match': `"${data.version}"` },
  });
  expect(saved.ok(), await saved.text()).toBe(true);

  const next = await context.newPage();
  await next.goto(`/visor/${visorId}/edit`);
  await expect(section(next, 'Uno de la página')).toBeVisible();
  await expect(section(next, 'Dos de otro lado')).toBeVisible();
  await expect.poll(() => serverTitles(request, account, visorId)).toEqual(['Dos de otro lado', 'Uno de la página']);
  await expectSaved(next);
});
