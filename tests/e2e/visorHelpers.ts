// The visor screen as a person uses it (issue 18): sections found by their title, the save
// state, and a visor with sections made through the API for tests that start from one.
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { Account } from './shellHelpers';

export async function login(request: APIRequestContext, account: { username: string; password: string }) {
  const response = await request.post('/api/login', { data: account });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { token: string; user: { _id: string } };
}

/** A section of the open visor by its title. */
export function section(page: Page, title: string): Locator {
  return page.getByRole('article', { name: title, exact: true });
}

export async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: /^Guardado$/ })).toBeVisible();
}

/** Renames a section in place: its title field, Enter. */
export async function renameSection(page: Page, from: string, to: string): Promise<void> {
  const input = section(page, from).getByRole('textbox', { name: 'Título de la sección' });
  await input.fill(to);
  await input.press('Enter');
  await expect(section(page, to)).toBeVisible();
}

const formula = (id: string, title: string, y: number) => ({
  id,
  type: 'formula',
  title,
  layout: { x: 0, y, w: 6, h: 4 },
  config: { formulas: [{ name: 'MEP', expression: 'BYMA:AL30/BYMA:AL30D' }] },
});

/** A visor of the account, at the root of its tree, with two formula sections `Uno` and `Dos`; answers its id. */
export async function seedVisor(request: APIRequestContext, account: Account, title: string, options: { public?: boolean } = {}) {
  const { token, user } = await login(request, account);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post(`/api/visores/${user._id}/new`, { data: { title, emoji: '💵', color: '#22c55e', folder_id: null }, headers });
  expect(created.ok(), await created.text()).toBe(true);
  const visorId = ((await created.json()) as { data: { id_visor: string } }).data.id_visor;
  const saved = await request.put(`/api/visores/${visorId}/update_secciones`, {
    data: { secciones: [formula('s1', 'Uno', 0), formula('s2', 'Dos', 4)] },
    headers,
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  if (options.public) {
    const shared = await request.put(`/api/visores/${visorId}/check_option`, { data: { option: 'public', value: true }, headers });
    expect(shared.ok(), await shared.text()).toBe(true);
  }
  return visorId;
}

/**
 * Moves the board's row `label` down one place by keyboard (Space, ArrowDown, Space), each key
 * after dnd-kit's announcement of the last one (a key before the lift has measured the rows is
 * lost); `count` rows in all, as the announcements say.
 */
export async function moveRowDownByKeyboard(page: Page, board: Locator, label: string, count: number): Promise<void> {
  const said = (text: string | RegExp) => expect(page.locator('[id^="DndLiveRegion"]', { hasText: text })).toBeAttached();
  await board.getByRole('button', { name: `Mover ${label}` }).focus();
  await page.keyboard.press('Space');
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await said(new RegExp(`${escaped}.* la posición 1 de ${count}\\.`));
  await page.keyboard.press('ArrowDown');
  await said(`${label} sobre la posición 2 de ${count}.`);
  await page.keyboard.press('Space');
  await said(`${label} quedó en la posición 2 de ${count}.`);
}
