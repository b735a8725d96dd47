// The app works under its Content Security Policy with no violation: sign-in, the sidebar's
// tree (a folder and a visor made through the modals), the emoji picker (its images load from
// our server), the colour picker and the quote board's live prices on /test. Violations are
// caught as the browser reports them: `securitypolicyviolation` events and console errors.
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { pickEmoji } from './pickerHelpers';
import { newUser } from './shellHelpers';
import { openCreate, row, workspaceTree } from './workspaceHelpers';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

const DOLLAR = 'DLR/DIC26';

/** What the page reported so far: violation events and console errors naming the CSP. */
async function violations(page: Page, consoleErrors: string[]): Promise<string[]> {
  const events = await page.evaluate(() => window.__cspViolations ?? []);
  return [...events, ...consoleErrors];
}

test('the app runs under its CSP with no violation', async ({ page, request }) => {
  test.setTimeout(60_000);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) consoleErrors.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations!.push(`${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} in ${event.sourceFile}:${event.lineNumber}`);
    });
  });

  // The policy is there, and strict about scripts.
  const response = await page.goto('/auth/signin');
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  // The pre-paint theme script (public/theme.js) ran.
  await expect(page.locator('html')).toHaveAttribute('data-color-mode', /^(?:light|dark|system)$/);

  // Sign-in and the sidebar's tree.
  await signIn(page, await newUser(request, 'csp'));
  await expect(page.getByRole('heading', { name: 'Espacio de trabajo' })).toBeVisible();

  // A folder through its modal, with an emoji (its image from /emoji) and a colour from the picker.
  const dialog = await openCreate(page, 'Carpeta');
  await dialog.getByPlaceholder('Título de la carpeta').fill('Carpeta CSP');
  await pickEmoji(dialog, '🚀');
  const image = dialog.locator('img.emoji').first();
  await expect(image).toHaveAttribute('src', '/emoji/apple/64/1f680.png');
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(64);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(workspaceTree(page), 'Carpeta CSP')).toHaveCount(1);

  // A visor through its modal, with a colour from the picker.
  const visorDialog = await openCreate(page, 'Visor');
  await visorDialog.getByPlaceholder('Título del visor').fill('Visor CSP');
  await visorDialog.getByRole('button', { name: 'Elegir color' }).click();
  const colourPicker = page.getByRole('dialog', { name: 'Selector de color' });
  await expect(colourPicker).toBeVisible();
  // react-colorful's own stylesheet applied: the saturation area has its size.
  const saturation = colourPicker.locator('.react-colorful__saturation');
  await expect.poll(async () => (await saturation.boundingBox())?.height ?? 0).toBeGreaterThan(20);
  const colourText = visorDialog.getByRole('textbox', { name: 'Color', exact: true });
  const before = await colourText.inputValue();
  await colourPicker.locator('.react-colorful__hue [role="slider"]').focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(colourText).not.toHaveValue(before);
  await page.keyboard.press('Escape');
  await expect(colourPicker).toBeHidden();
  await visorDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(visorDialog).toBeHidden();
  await expect(row(workspaceTree(page), 'Visor CSP')).toHaveCount(1);

  // The quote board: a symbol added by hand gets a live price over the market socket.
  await page.goto('/test');
  await expect(page.getByRole('heading', { name: 'Test', level: 1 })).toBeVisible();
  await page.getByLabel('Agregar símbolo').fill(DOLLAR);
  await page.getByLabel('Agregar símbolo').press('Enter');
  const quote = page.getByRole('row').and(page.locator(`[data-symbol="${DOLLAR}"]`));
  await expect(quote.getByRole('rowheader')).toHaveText(DOLLAR);
  await expect(quote).toHaveAttribute('data-stale', 'false', { timeout: 20_000 });
  await expect(quote.getByRole('cell').nth(2)).toHaveText(/^\d[\d.]*,\d\d$/);
  await expect(page.getByRole('table', { name: 'Cotizaciones' })).toHaveAttribute('data-live', 'true');

  expect(await violations(page, consoleErrors)).toEqual([]);
});
