// Choosing an emoji or a colour in a form as a person does. Every end-to-end test that fills
// an Emoji or Color field goes through these two functions, so the way the pickers are driven
// lives in one place (tests/e2e/pickers.spec.ts drives them in more detail).
import { expect, type Locator } from '@playwright/test';

/** Opens the Emoji field inside `scope`, searches for `emoji` by its name and clicks it. */
export async function pickEmoji(scope: Locator, emoji: string, search = emojiSearchTerm(emoji)): Promise<void> {
  const page = scope.page();
  await scope.getByRole('button', { name: 'Emoji', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Selector de emoji' });
  await picker.getByPlaceholder('Search emoji').fill(search);
  await picker
    .locator(`[data-epr-unified="${unifiedOf(emoji)}"]`)
    .first()
    .click();
  await expect(picker).toBeHidden();
  await expect(scope.getByRole('button', { name: 'Emoji', exact: true })).toHaveAttribute('data-value', emoji);
}

/** Types `color` (any CSS colour text) into the Color field's text box inside `scope`. */
export async function typeColor(scope: Locator, color: string): Promise<void> {
  await scope.getByRole('textbox', { name: 'Color', exact: true }).fill(color);
}

function unifiedOf(emoji: string): string {
  return [...emoji].map((char) => char.codePointAt(0)!.toString(16).padStart(4, '0')).join('-');
}

// Names the picker's search finds, for the emojis the specs use.
const NAMES: Record<string, string> = {
  '📁': 'file folder',
  '📈': 'chart with upwards trend',
  '💵': 'dollar',
  '🚀': 'rocket',
  '⭐': 'star',
  '🔥': 'fire',
  '🐂': 'ox',
  '🐻': 'bear',
  '💰': 'money bag',
  '😀': 'grinning',
  '🌎': 'earth',
  '🏦': 'bank',
};

function emojiSearchTerm(emoji: string): string {
  const name = NAMES[emoji];
  if (!name) throw new Error(`pickEmoji: add a search name for ${emoji} to tests/e2e/pickerHelpers.ts`);
  return name;
}
