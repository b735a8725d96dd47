import { expect, test } from '@playwright/test';
import { ADMIN, DEMO, expectHome, signIn, storedToken } from './helpers';

test('a signed-out visit lands on sign-in, on the bare layout', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByRole('heading', { name: 'Visores' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
});

test('demo signs in and reaches home; a reload keeps the session', async ({ page }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  await expect(page.getByRole('button', { name: /demo/ })).toBeVisible();
  expect(await storedToken(page)).toBeTruthy();

  await page.reload();
  await expectHome(page);
  await expect(page.getByText('Hola, Demo.')).toBeVisible();
});

test('a wrong password shows the server message and stays on sign-in', async ({ page }) => {
  await signIn(page, { username: 'demo', password: 'not-the-password' });
  await expect(page.getByRole('alert')).toHaveText('Usuario o contraseña incorrectos');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await storedToken(page)).toBeNull();
});

test('an empty form is not sent and says what is missing', async ({ page }) => {
  await page.goto('/auth/signin');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByRole('alert')).toHaveText('Ingrese su usuario');
});

test('sign-in brings the user back to the page they asked for', async ({ page }) => {
  await page.goto('/config/profile');
  await expect(page).toHaveURL(/\/auth\/signin\?next=%2Fconfig%2Fprofile$/);
  await page.getByLabel('Usuario').fill(DEMO.username);
  await page.getByLabel('Contraseña').fill(DEMO.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/config\/profile$/);
  await expect(page.getByRole('heading', { name: 'Perfil', level: 1 })).toBeVisible();
});

test('a user visiting /users is sent to sign-in and the token is removed', async ({ page }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  await expect(page.getByRole('link', { name: 'Usuarios' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Inicio' })).toBeVisible();

  await page.goto('/users');
  await expect(page).toHaveURL(/\/auth\/signin\?next=%2Fusers$/);
  expect(await storedToken(page)).toBeNull();
});

test('a signed-out visit to an admin page signs the admin in and back to it', async ({ page }) => {
  await page.goto('/admin/datacenter/logs-operadores');
  await expect(page).toHaveURL(/\/auth\/signin\?next=%2Fadmin%2Fdatacenter%2Flogs-operadores$/);
  await page.getByLabel('Usuario').fill(ADMIN.username);
  await page.getByLabel('Contraseña').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page).toHaveURL(/\/admin\/datacenter\/logs-operadores$/);
  await expect(page.getByRole('heading', { name: 'Logs de operadores', level: 1 })).toBeVisible();
});

test('an admin sees the admin entries and reaches /users', async ({ page }) => {
  await signIn(page, ADMIN);
  await expectHome(page);
  const menu = page.getByRole('navigation', { name: 'Menú principal' });
  await expect(menu.getByRole('link')).toHaveText(['Admin', 'Data center TV', 'Data center ROFEX', 'Logs de operadores', 'Posiciones', 'Usuarios', 'Perfil']);
  await menu.getByRole('link', { name: 'Usuarios' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { name: 'Usuarios', level: 1 })).toBeVisible();
});

test('logout lands on sign-in and the old token is refused by the API', async ({ page, request }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  const token = await storedToken(page);
  expect(token).toBeTruthy();
  expect((await request.post('/api/checkToken', { data: { token } })).status()).toBe(200);

  await page.getByRole('button', { name: /demo/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await storedToken(page)).toBeNull();

  const check = await request.post('/api/checkToken', { data: { token } });
  expect(check.status()).toBe(401);
  expect((await check.json()).status).toBe('error');

  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/signin$/);
});

test('a token the server no longer accepts sends the next navigation to sign-in', async ({ page, request }) => {
  await signIn(page, DEMO);
  await expectHome(page);
  const token = await storedToken(page);
  // End the session from elsewhere (as another tab or device would).
  const logout = await request.post('/api/logout', { data: { log: 'e2e' }, headers: { authorization: `Bearer ${token}` } });
  expect(logout.status()).toBe(200);

  await page.getByRole('link', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/auth\/signin/);
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  await expect(page.getByText('/no/such/page')).toBeVisible();
});
