// The storage quotas as a user meets them, on a server of the spec's own with low ones: a
// visor past MAX_VISORES_PER_USER is refused in the Visor dialog with the server's reason, and
// a section past MAX_SECTIONS_PER_VISOR is said in a toast (the header's save state scrolls
// away with the page) and in the header; removing a section saves again.
import { expect, test } from '@playwright/test';
import { TOO_MANY_SECTIONS } from '../../src/protocol/workspace';
import { ADMIN, signIn } from './helpers';
import { startOwnServer, type OwnServer } from './ownServer';
import { expectSaved, section } from './visorHelpers';
import { create, openCreate, row, workspaceTree } from './workspaceHelpers';

let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer({ MAX_VISORES_PER_USER: '2', MAX_SECTIONS_PER_VISOR: '2' });
});

test.afterAll(async () => {
  await server?.stop();
});

async function newAccount(): Promise<{ username: string; password: string }> {
  const signedIn = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const { token } = (await signedIn.json()) as { token: string };
  const account = { username: `cuota${Date.now().toString(36)}`, password: 'clave-segura-1', firstName: 'Ana', lastName: 'Pérez' };
  const made = await fetch(`${server.url}/api/admin/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(account),
  });
  expect(made.ok, await made.text()).toBe(true);
  return account;
}

test('a visor past the quota is refused in its dialog; a section past it is told in a toast and saved once one is removed', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, await newAccount(), `${server.url}/auth/signin`);
  await create(page, 'Visor', 'Uno');
  await create(page, 'Visor', 'Dos');

  const dialog = await openCreate(page, 'Visor');
  await dialog.getByPlaceholder('Título del visor').fill('Tres');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toContainText('Llegó al máximo de 2 visores por usuario: borre alguno que no use para crear otro');
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(row(workspaceTree(page), 'Tres')).toHaveCount(0);

  await row(workspaceTree(page), 'Uno').first().getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Uno', level: 1 })).toBeVisible();
  const addSection = async () => {
    await page.getByRole('button', { name: 'Agregar sección' }).click();
    await page.getByRole('menuitem', { name: 'Fórmulas' }).click();
  };
  await addSection();
  await addSection();
  await expect(section(page, 'Fórmulas')).toHaveCount(2);
  await expectSaved(page);

  await addSection();
  const refusal = `No se guardó el visor: ${TOO_MANY_SECTIONS(2)}`;
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: refusal })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `No guardado: ${TOO_MANY_SECTIONS(2)}` })).toBeVisible();

  // One removed: two again, and saved.
  await section(page, 'Fórmulas').first().getByRole('button', { name: 'Eliminar sección' }).click();
  await page.getByRole('alertdialog', { name: '¿Estas seguro?' }).getByRole('button', { name: 'Si, borrar' }).click();
  await expect(section(page, 'Fórmulas')).toHaveCount(2);
  await expectSaved(page);
});
