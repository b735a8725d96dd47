import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN } from './helpers';

export interface Account {
  username: string;
  password: string;
  firstName: string;
  lastName: string;
}

async function login(request: APIRequestContext, account: { username: string; password: string }) {
  const response = await request.post('/api/login', { data: account });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { token: string; user: { _id: string } };
}

/** A fresh user made by the admin through the API, so a test can change it freely. */
export async function newUser(request: APIRequestContext, prefix: string): Promise<Account> {
  const admin = await login(request, ADMIN);
  const account = {
    username: `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`,
    password: 'clave-segura-1',
    firstName: 'Ana',
    lastName: 'Pérez',
  };
  const response = await request.post('/api/admin/users', { data: account, headers: { authorization: `Bearer ${admin.token}` } });
  expect(response.ok(), await response.text()).toBe(true);
  return account;
}

/** Creates a visor for the account and places it inside a new folder of the tree's root. */
export async function seedVisorInFolder(request: APIRequestContext, account: Account, visorTitle: string, folderName: string) {
  const { token, user } = await login(request, account);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post(`/api/visores/${user._id}/new`, { data: { title: visorTitle, emoji: '📈', color: '#22c55e' }, headers });
  expect(created.ok(), await created.text()).toBe(true);
  const visorId = ((await created.json()) as { data: { id_visor: string } }).data.id_visor;
  const tree = [
    {
      folder_id: 'Seed1',
      name: folderName,
      emoji: '📁',
      sub: [{ visor_id: visorId, name: visorTitle, emoji: '📈', color: '#22c55e', to: `visor/${visorId}/edit` }],
    },
  ];
  const saved = await request.put(`/api/visores/${user._id}/folders`, { data: tree, headers });
  expect(saved.ok(), await saved.text()).toBe(true);
  return visorId;
}

export async function htmlData(page: Page, name: string): Promise<string | null> {
  return page.evaluate((attribute) => document.documentElement.getAttribute(attribute), `data-${name}`);
}
