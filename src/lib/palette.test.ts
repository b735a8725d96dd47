import { describe, expect, it } from 'vitest';
import { ALTERNATE_COLORS, LINE_COLORS, lineColor } from './palette';

describe('chart palettes', () => {
  it('has 50 distinct line colours and 7 distinct alternates, all valid hex', () => {
    expect(LINE_COLORS).toHaveLength(50);
    expect(ALTERNATE_COLORS).toHaveLength(7);
    for (const list of [LINE_COLORS, ALTERNATE_COLORS]) {
      expect(new Set(list.map((color) => color.toLowerCase())).size).toBe(list.length);
      for (const color of list) expect(color).toMatch(/^#[0-9a-f]{6}$/i);
    }
  });
  it('gives series colours in order and repeats after 50', () => {
    expect(lineColor(0)).toBe(LINE_COLORS[0]);
    expect(lineColor(49)).toBe(LINE_COLORS[49]);
    expect(lineColor(50)).toBe(LINE_COLORS[0]);
    expect(lineColor(-1)).toBe(LINE_COLORS[49]);
  });
});
