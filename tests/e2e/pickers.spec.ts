// The emoji and colour pickers of the Carpeta and Visor modals (issue 6), as a person uses
// them: search, categories, skin tones, recents, closing, our own images; colour text in each
// format, arrow keys, unparseable text ignored.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { newUser } from './shellHelpers';
import { pickEmoji } from './pickerHelpers';
import { openCreate, row, workspaceTree } from './workspaceHelpers';

test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ page, request }) => {
  await signIn(page, await newUser(request, 'pk'));
  await expect(page.getByRole('heading', { name: 'Espacio de trabajo' })).toBeVisible();
});

const GROUPS = ['Recently Used', 'Smiles & People', 'Animals & Nature', 'Food & Drink', 'Activities', 'Travel & Places', 'Objects', 'Symbols', 'Flags'];

/** The picker's category tabs are exactly `names`, in order. */
async function expectTabs(picker: Locator, names: string[]) {
  await expect(picker.getByRole('tab')).toHaveCount(names.length);
  for (const [index, name] of names.entries()) await expect(picker.getByRole('tab').nth(index)).toHaveAccessibleName(name);
}

function emojiPicker(page: Page) {
  return page.getByRole('dialog', { name: 'Selector de emoji' });
}

test('emoji by search and by category, with the texts of the spec, from our own server only', async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseURL!) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) foreign.push(request.url());
  });
  const dialog = await openCreate(page, 'Carpeta');
  const field = dialog.getByRole('button', { name: 'Emoji', exact: true });
  await field.click();
  const picker = emojiPicker(page);
  // A fresh account has no recent emojis yet: no 'Recently Used' tab that leads nowhere.
  await expectTabs(picker, GROUPS.slice(1));
  const search = picker.getByPlaceholder('Search emoji');
  await search.fill('zzzzqqq');
  // Shown, and announced to screen readers.
  await expect(picker.getByText('No emoji has been found!').first()).toBeVisible();
  await search.fill('rocket');
  await picker.getByRole('gridcell', { name: 'rocket', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(field).toHaveAttribute('data-value', '🚀');
  const image = field.locator('img.emoji');
  await expect(image).toHaveAttribute('src', '/emoji/apple/64/1f680.png');
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(64);

  await field.click();
  // Now the spec's nine groups, in its order, recent first.
  await expectTabs(picker, GROUPS);
  await picker.getByRole('tab', { name: 'Animals & Nature' }).click();
  await picker.getByRole('rowgroup', { name: 'Animals & Nature' }).getByRole('gridcell', { name: 'monkey face', exact: true }).click();
  await expect(field).toHaveAttribute('data-value', '🐵');
  expect(foreign).toEqual([]);
});

test('six skin tones; the chosen tone applies to what is picked next', async ({ page }) => {
  const dialog = await openCreate(page, 'Carpeta');
  const field = dialog.getByRole('button', { name: 'Emoji', exact: true });
  await field.click();
  const picker = emojiPicker(page);
  await expect(picker.getByRole('button', { name: /^Skin tone/ })).toHaveCount(6);
  // The active tone opens the others.
  await picker.getByRole('button', { name: 'Skin tone: neutral', exact: true }).click();
  await picker.getByRole('button', { name: 'Skin tone: medium', exact: true }).click();
  await picker.getByPlaceholder('Search emoji').fill('thumbs up');
  await picker.locator('[data-epr-unified^="1f44d"]').first().click();
  await expect(field).toHaveAttribute('data-value', '👍🏽');
});

test('recently used emojis are remembered across a reload', async ({ page }) => {
  let dialog = await openCreate(page, 'Carpeta');
  await dialog.getByRole('button', { name: 'Emoji', exact: true }).click();
  await emojiPicker(page).getByPlaceholder('Search emoji').fill('fire');
  await emojiPicker(page).getByRole('gridcell', { name: 'fire', exact: true }).click();
  await dialog.getByRole('button', { name: 'Cerrar' }).click();

  await page.reload();
  dialog = await openCreate(page, 'Visor');
  await dialog.getByRole('button', { name: 'Emoji', exact: true }).click();
  const recent = emojiPicker(page).getByRole('rowgroup', { name: 'Recently Used' });
  await expect(recent.getByRole('gridcell', { name: 'fire', exact: true })).toBeVisible();
});

test('the picker closes on a click outside and on Escape, leaving the modal open', async ({ page }) => {
  const dialog = await openCreate(page, 'Carpeta');
  const field = dialog.getByRole('button', { name: 'Emoji', exact: true });
  await field.click();
  await expect(emojiPicker(page)).toBeVisible();
  // A click in the modal beside the picker (the right end of the title field).
  const title = dialog.getByPlaceholder('Título de la carpeta');
  const box = (await title.boundingBox())!;
  await page.mouse.click(box.x + box.width - 8, box.y + box.height / 2);
  await expect(emojiPicker(page)).toBeHidden();
  await expect(dialog).toBeVisible();

  await field.click();
  await emojiPicker(page).getByPlaceholder('Search emoji').press('Escape');
  await expect(emojiPicker(page)).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(field).toBeFocused();
});

test("the title's emoji button inserts the emoji at the cursor, and its picker has no recent group", async ({ page }) => {
  const dialog = await openCreate(page, 'Carpeta');
  // An emoji chosen in the Emoji field (which shows recents) becomes a recent one.
  await pickEmoji(dialog, '🔥');
  const title = dialog.getByPlaceholder('Título de la carpeta');
  await title.fill('Renta fija');
  // The cursor between 'Renta' and ' fija', as a person puts it there with the keyboard.
  await title.press('End');
  for (let step = 0; step < ' fija'.length; step++) await title.press('ArrowLeft');
  await dialog.getByRole('button', { name: 'Insertar emoji en el título' }).click();
  const picker = emojiPicker(page);
  // displayRecent is off for this picker (the spec's default): no 'Recently Used', though there are recents.
  await expectTabs(picker, GROUPS.slice(1));
  await expect(picker.getByText('Recently Used')).toHaveCount(0);
  await picker.getByPlaceholder('Search emoji').fill('rocket');
  await picker.getByRole('gridcell', { name: 'rocket', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(title).toHaveValue('Renta🚀 fija');
  // The focus is back in the title with the cursor just after the emoji.
  await expect(title).toBeFocused();
  await page.keyboard.type('X');
  await expect(title).toHaveValue('Renta🚀X fija');

  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(workspaceTree(page), 'Renta🚀X fija')).toBeVisible();
});

test('colour: typed in each format, switched between formats, unparseable text ignored', async ({ page }) => {
  const dialog = await openCreate(page, 'Visor');
  const text = dialog.getByRole('textbox', { name: 'Color', exact: true });
  const chip = dialog.locator('.color-field__chip');
  await expect(text).toHaveValue('hsl(270 100% 50% / 0.8)');

  await text.fill('#22c55e');
  await expect(chip).toHaveCSS('background-color', 'rgb(34, 197, 94)');
  await text.fill('rgb(300 0 0 / 0.5)'); // channels clamped to 255
  await expect(chip).toHaveCSS('background-color', 'rgba(255, 0, 0, 0.5)');
  await text.fill('hwb(240 0% 0%)');
  await expect(chip).toHaveCSS('background-color', 'rgb(0, 0, 255)');
  await text.fill('hsl(480 100% 50%)'); // hue wraps: 120
  await expect(chip).toHaveCSS('background-color', 'rgb(0, 255, 0)');

  await text.fill('#12345'); // five digits: ignored
  await expect(chip).toHaveCSS('background-color', 'rgb(0, 255, 0)');
  await text.blur();
  await expect(text).toHaveValue('hsl(120 100% 50%)');

  await dialog.getByRole('button', { name: 'Elegir color' }).click();
  const picker = page.getByRole('dialog', { name: 'Selector de color' });
  await picker.getByRole('radio', { name: 'HEX' }).click();
  await expect(text).toHaveValue('#00ff00');
  await picker.getByRole('radio', { name: 'RGB' }).click();
  await expect(text).toHaveValue('rgb(0 255 0)');
});

test('colour: arrow keys step alpha by 0.01, and by 0.1 with Shift', async ({ page }) => {
  const dialog = await openCreate(page, 'Visor');
  const text = dialog.getByRole('textbox', { name: 'Color', exact: true });
  await dialog.getByRole('button', { name: 'Elegir color' }).click();
  const picker = page.getByRole('dialog', { name: 'Selector de color' });
  const alpha = picker.locator('.react-colorful__alpha [role="slider"]');
  await alpha.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(text).toHaveValue('hsl(270 100% 50% / 0.79)');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(text).toHaveValue('hsl(270 100% 50% / 0.69)');
  const hue = picker.locator('.react-colorful__hue [role="slider"]');
  await hue.focus();
  await page.keyboard.press('Shift+ArrowRight'); // +36°
  await expect(text).toHaveValue('hsl(306 100% 50% / 0.69)');
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(dialog).toBeVisible();
});
