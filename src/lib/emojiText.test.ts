import { describe, expect, it } from 'vitest';
import { emojiOfUnified, imageNamesOf, insertEmoji, unifiedOf } from './emojiText';

describe('insertEmoji', () => {
  it('inserts at the cursor by default, replacing a selection', () => {
    expect(insertEmoji('abcd', '😀', 'insert', 2)).toEqual({ text: 'ab😀cd', cursor: 4 });
    expect(insertEmoji('abcd', '😀', undefined, 1, 3)).toEqual({ text: 'a😀d', cursor: 3 });
    expect(insertEmoji('abcd', '😀')).toEqual({ text: 'abcd😀', cursor: 6 });
  });
  it('prepends and appends', () => {
    expect(insertEmoji('abcd', '😀', 'prepend', 2)).toEqual({ text: '😀abcd', cursor: 2 });
    expect(insertEmoji('abcd', '😀', 'append', 0)).toEqual({ text: 'abcd😀', cursor: 6 });
  });
  it('keeps a cursor out of range inside the text', () => {
    expect(insertEmoji('ab', '😀', 'insert', 9)).toEqual({ text: 'ab😀', cursor: 4 });
    expect(insertEmoji('ab', '😀', 'insert', -3)).toEqual({ text: '😀ab', cursor: 2 });
  });
});

describe('unified codes', () => {
  it('converts both ways', () => {
    expect(unifiedOf('😀')).toBe('1f600');
    expect(unifiedOf('👍🏽')).toBe('1f44d-1f3fd');
    expect(unifiedOf('#️⃣')).toBe('0023-fe0f-20e3');
    expect(emojiOfUnified('1f44d-1f3fd')).toBe('👍🏽');
    expect(emojiOfUnified('nope')).toBeNull();
    expect(emojiOfUnified('ffffffff')).toBeNull();
  });
  it('tries the image name without variation selectors too', () => {
    expect(imageNamesOf('❤️')).toEqual(['2764-fe0f', '2764']);
    expect(imageNamesOf('😀')).toEqual(['1f600']);
  });
});
