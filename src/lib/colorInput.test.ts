import { describe, expect, it } from 'vitest';
import { formatOf, fromHsva, parseColor, printColor, stepColor, toHsva, wrapHue } from './colorInput';

describe('parseColor', () => {
  it('accepts hex of 3, 4, 6 and 8 digits only', () => {
    expect(parseColor('#f00')).toEqual({ r: 255, g: 0, b: 0, a: 1 });
    expect(parseColor('#f008')).toEqual({ r: 255, g: 0, b: 0, a: 0.533 });
    expect(parseColor('#00ff00')).toEqual({ r: 0, g: 255, b: 0, a: 1 });
    expect(parseColor('#0000ff80')).toEqual({ r: 0, g: 0, b: 255, a: 0.5 });
    for (const text of ['#', '#f', '#ff', '#fffff', '#fffffff', '#fffffffff', '#ggg', 'f00']) expect(parseColor(text)).toBeNull();
  });

  it('clamps RGB channels to 0–255 and percentages to 0–100', () => {
    expect(parseColor('rgb(300 -5 128)')).toEqual({ r: 255, g: 0, b: 128, a: 1 });
    expect(parseColor('rgb(150% 50% 0%)')).toEqual({ r: 255, g: 128, b: 0, a: 1 });
    expect(parseColor('rgba(10, 20, 30, 0.5)')).toEqual({ r: 10, g: 20, b: 30, a: 0.5 });
  });

  it('wraps the hue at 360 and clamps saturation and lightness', () => {
    expect(parseColor('hsl(360 100% 50%)')).toEqual(parseColor('hsl(0 100% 50%)'));
    expect(parseColor('hsl(480 100% 50%)')).toEqual(parseColor('hsl(120 100% 50%)'));
    expect(parseColor('hsl(-90 100% 50%)')).toEqual(parseColor('hsl(270 100% 50%)'));
    expect(parseColor('hsl(0 150% 50%)')).toEqual(parseColor('hsl(0 100% 50%)'));
    expect(parseColor('hsl(0 100% -10%)')).toEqual({ r: 0, g: 0, b: 0, a: 1 });
    expect(parseColor('hsl(0.5turn 100% 50%)')).toEqual(parseColor('hsl(180 100% 50%)'));
  });

  it('clamps alpha to 0–1, as a number or a percentage', () => {
    expect(parseColor('hsl(270 100% 50% / 0.8)')?.a).toBe(0.8);
    expect(parseColor('hsl(270 100% 50% / 2)')?.a).toBe(1);
    expect(parseColor('hsl(270 100% 50% / -1)')?.a).toBe(0);
    expect(parseColor('rgb(0 0 0 / 40%)')?.a).toBe(0.4);
    expect(parseColor('hwb(0 0% 0% / 150%)')?.a).toBe(1);
  });

  it('reads hwb', () => {
    expect(parseColor('hwb(120 0% 0%)')).toEqual({ r: 0, g: 255, b: 0, a: 1 });
    expect(parseColor('hwb(0 100% 0%)')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
  });

  it('ignores what does not parse', () => {
    for (const text of [
      '',
      'redd',
      'url(http://x)',
      'red;background:url(x)',
      'var(--x)',
      'rgb(1 2)',
      'rgb(1 2 3 4)',
      'hsl(a b c)',
      'hsl(10% 50% 50%)',
      'rgb(1deg 2 3)',
      'hsl(1 2% 3% / x)',
      'cmyk(1 2 3)',
      'rgb(1 2 3',
    ])
      expect(parseColor(text), text).toBeNull();
  });
});

describe('printColor', () => {
  const violet = parseColor('hsl(270 100% 50% / 0.8)')!;
  it('prints each format, alpha only below 1', () => {
    expect(printColor(violet, 'hsl')).toBe('hsl(270 100% 50% / 0.8)');
    expect(printColor(violet, 'rgb')).toBe('rgb(128 0 255 / 0.8)');
    expect(printColor(violet, 'hex')).toBe('#8000ffcc');
    expect(printColor(violet, 'hwb')).toBe('hwb(270 0% 0% / 0.8)');
    expect(printColor({ r: 255, g: 0, b: 0, a: 1 }, 'rgb')).toBe('rgb(255 0 0)');
  });
  it('round-trips through every format', () => {
    for (const format of ['hex', 'hsl', 'hwb', 'rgb'] as const) {
      const printed = printColor(violet, format);
      expect(formatOf(printed)).toBe(format);
      expect(parseColor(printed)).toEqual(parseColor(printColor(parseColor(printed)!, format)));
    }
  });
});

describe('stepColor (arrow keys)', () => {
  const start = { h: 270, s: 50, v: 50, a: 0.5 };
  it('steps 0.01 of the range, 0.1 with Shift', () => {
    expect(stepColor(start, 'alpha', 'ArrowRight', false).a).toBe(0.51);
    expect(stepColor(start, 'alpha', 'ArrowLeft', true).a).toBe(0.4);
    expect(stepColor(start, 'hue', 'ArrowRight', false).h).toBeCloseTo(273.6);
    expect(stepColor(start, 'hue', 'ArrowLeft', true).h).toBe(234);
    expect(stepColor(start, 'saturation', 'ArrowRight', false)).toMatchObject({ s: 51, v: 50 });
    expect(stepColor(start, 'saturation', 'ArrowDown', true)).toMatchObject({ s: 50, v: 40 });
  });
  it('wraps the hue and stops alpha and saturation at their ends', () => {
    expect(stepColor({ ...start, h: 356.4 }, 'hue', 'ArrowRight', false).h).toBe(0);
    expect(stepColor({ ...start, h: 0 }, 'hue', 'ArrowLeft', true).h).toBe(324);
    expect(stepColor({ ...start, a: 1 }, 'alpha', 'ArrowUp', true).a).toBe(1);
    expect(stepColor({ ...start, s: 0 }, 'saturation', 'ArrowLeft', true).s).toBe(0);
  });
  it('converts between HSVA and RGBA', () => {
    expect(fromHsva(toHsva({ r: 128, g: 0, b: 255, a: 0.8 }))).toEqual({ r: 128, g: 0, b: 255, a: 0.8 });
    expect(wrapHue(720)).toBe(0);
  });
});
