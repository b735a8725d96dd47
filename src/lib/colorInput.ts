// The colour picker's arithmetic (spec section 2): HSVA for the picker, and its arrow-key
// steps. Colour text — parsing, formats, printing — is src/protocol/color.ts, shared with the
// server, which stores colours as that module prints them.
import { colord, type RgbaColor } from 'colord';
import { clamp, round, wrapHue } from '../protocol/color';

export { COLOR_FORMATS, formatOf, normalizeColor, parseColor, printColor, wrapHue, type ColorFormat } from '../protocol/color';

export interface Hsva {
  h: number;
  s: number;
  v: number;
  a: number;
}

export function toHsva(color: RgbaColor): Hsva {
  const { h, s, v, a } = colord(color).toHsv();
  return { h, s, v, a };
}

export function fromHsva(hsva: Hsva): RgbaColor {
  return colord({ h: wrapHue(hsva.h), s: clamp(hsva.s, 0, 100), v: clamp(hsva.v, 0, 100), a: clamp(hsva.a, 0, 1) }).toRgb();
}

export type PickerPart = 'saturation' | 'hue' | 'alpha';
export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

/**
 * One arrow-key step on a part of the picker, per spec: 0.01 of the part's range, 0.1 with
 * Shift. The hue runs 0–360 and wraps; saturation (left/right) and brightness (up/down) and
 * alpha run 0–1 of their range and stop at the ends.
 */
export function stepColor(hsva: Hsva, part: PickerPart, key: ArrowKey, shift: boolean): Hsva {
  const step = shift ? 0.1 : 0.01;
  const sign = key === 'ArrowRight' || key === 'ArrowUp' ? 1 : -1;
  switch (part) {
    case 'hue':
      return { ...hsva, h: wrapHue(round(hsva.h + sign * step * 360, 4)) };
    case 'alpha':
      return { ...hsva, a: round(clamp(hsva.a + sign * step, 0, 1), 4) };
    case 'saturation':
      return key === 'ArrowLeft' || key === 'ArrowRight'
        ? { ...hsva, s: round(clamp(hsva.s + sign * step * 100, 0, 100), 4) }
        : { ...hsva, v: round(clamp(hsva.v + sign * step * 100, 0, 100), 4) };
  }
}
