// Choosing an emoji or a colour in a form as a person does. Every end-to-end test that fills
// an Emoji or Color field goes through these two functions, so the way the pickers are driven
// lives in one place (the pickers' own spec drives them in more detail).
import type { Locator } from '@playwright/test';

/** Chooses `emoji` in the Emoji field inside `scope` (a dialog or a form). */
export async function pickEmoji(scope: Locator, emoji: string): Promise<void> {
  await scope.getByLabel('Emoji', { exact: true }).fill(emoji);
}

/** Types `color` (any CSS colour text) into the Color field inside `scope`. */
export async function typeColor(scope: Locator, color: string): Promise<void> {
  await scope.getByLabel('Color', { exact: true }).fill(color);
}
