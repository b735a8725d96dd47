// Emoji codes and text (spec section 2: insert modes for inputs prepend, insert at the
// cursor (default) and append).
export type InsertMode = 'prepend' | 'insert' | 'append';

/** The text after putting `emoji` into it, and where the cursor goes (just after the emoji). */
export function insertEmoji(
  text: string,
  emoji: string,
  mode: InsertMode = 'insert',
  selectionStart = text.length,
  selectionEnd = selectionStart,
): { text: string; cursor: number } {
  if (mode === 'prepend') return { text: emoji + text, cursor: emoji.length };
  if (mode === 'append') return { text: text + emoji, cursor: text.length + emoji.length };
  const start = Math.max(0, Math.min(selectionStart, text.length));
  const end = Math.max(start, Math.min(selectionEnd, text.length));
  return { text: text.slice(0, start) + emoji + text.slice(end), cursor: start + emoji.length };
}

/** The unified code of an emoji as the image files name it: code points in hex joined by '-'. */
export function unifiedOf(emoji: string): string {
  return [...emoji].map((char) => char.codePointAt(0)!.toString(16).padStart(4, '0')).join('-');
}

/** The emoji for a unified code ('1f44d-1f3fd' → 👍🏽); null when it is not one. */
export function emojiOfUnified(unified: string): string | null {
  if (!/^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i.test(unified)) return null;
  try {
    return String.fromCodePoint(...unified.split('-').map((part) => parseInt(part, 16)));
  } catch {
    return null;
  }
}

/** Image names to try for an emoji: as written, then without variation selectors (U+FE0F). */
export function imageNamesOf(emoji: string): string[] {
  const full = unifiedOf(emoji);
  const bare = full
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
  return bare && bare !== full ? [full, bare] : [full];
}
