// Colour text as the server stores it (issue 17): colours only, normalised as the picker prints them.
import { describe, expect, it } from 'vitest';
import { COLOR_FORMATS, normalizeColor, parseColor, printColor } from './color';

describe('normalizeColor', () => {
  it('prints each format as the colour picker does, a colour name as hex', () => {
    expect(normalizeColor('#ABC')).toBe('#aabbcc');
    expect(normalizeColor(' #FF000080 ')).toBe('#ff000080');
    expect(normalizeColor('rgba(255, 0, 0, 0.5)')).toBe('rgb(255 0 0 / 0.5)');
    expect(normalizeColor('rgb(100% 0% 0%)')).toBe('rgb(255 0 0)');
    expect(normalizeColor('hsla(10, 20.4%, 30.6%, .555)')).toBe('hsl(10 20% 31% / 0.56)');
    expect(normalizeColor('hsl(270 100% 50% / 0.8)')).toBe('hsl(270 100% 50% / 0.8)');
    expect(normalizeColor('hwb(-10 20% 30% / 50%)')).toBe('hwb(350 20% 30% / 0.5)');
    expect(normalizeColor('red')).toBe('#ff0000');
    expect(normalizeColor('RebeccaPurple')).toBe('#663399');
  });

  it('refuses any other CSS: urls, a second declaration, variables, keywords, expressions', () => {
    for (const text of [
      '',
      'url(http://example.com/x.png)',
      'red;background:url(http://example.com/x.png)',
      'red url(x)',
      'var(--accent)',
      'currentColor',
      'inherit',
      'expression(alert(1))',
      'rgb(1 2 3);x',
      'rgb(1 2 3) , red',
      'color-mix(in srgb, red, blue)',
      'notacolour',
      '#12345g',
    ]) {
      expect(normalizeColor(text), text).toBeNull();
    }
  });

  it("leaves the picker's own output unchanged, in every format (no drift on each save)", () => {
    let seed = 17;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const color = {
        r: Math.floor(random() * 256),
        g: Math.floor(random() * 256),
        b: Math.floor(random() * 256),
        a: random() < 0.5 ? 1 : Math.round(random() * 100) / 100,
      };
      for (const format of COLOR_FORMATS) {
        const printed = printColor(color, format);
        expect(normalizeColor(printed), printed).toBe(printed);
      }
    }
  });

  it('parses colour names for the picker too', () => {
    expect(parseColor('red')).toEqual({ r: 255, g: 0, b: 0, a: 1 });
    expect(parseColor('redd')).toBeNull();
  });
});
