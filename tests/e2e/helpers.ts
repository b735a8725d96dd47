import { expect, type Page } from '@playwright/test';

export const DEMO = { username: 'demo', password: 'demo1234' };
export const ADMIN = { username: 'admin', password: 'admin1234' };

/** Signs in through the form, as a person does, and waits for the home screen. */
export async function signIn(page: Page, account: { username: string; password: string }, from = '/auth/signin') {
  await page.goto(from);
  await page.getByLabel('Usuario').fill(account.username);
  await page.getByLabel('Contraseña').fill(account.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
}

export async function expectHome(page: Page) {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
}

export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('visores.token'));
}
