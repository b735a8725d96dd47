// The colour picker's text field (spec section 2 and the validation rules of section 4):
// formats hex, hsl, hwb and rgb, each with alpha. Parsing is our own so the spec's rules hold
// exactly — hex only with 3, 4, 6 or 8 digits; percentages clamped 0–100; hue wrapping at 360;
// RGB channels clamped 0–255; alpha 0–1; anything unparseable is ignored (null) — and colord
// converts between the formats and prints them.
import { colord, extend, type RgbaColor } from 'colord';
import hwbPlugin from 'colord/plugins/hwb';

extend([hwbPlugin]);

export type ColorFormat = 'hex' | 'hsl' | 'hwb' | 'rgb';
export const COLOR_FORMATS: readonly ColorFormat[] = ['hex', 'hsl', 'hwb', 'rgb'];

export interface Hsva {
  h: number;
  s: number;
  v: number;
  a: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round = (value: number, digits = 2) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** Hue in degrees wrapped into [0, 360). */
export function wrapHue(degrees: number): number {
  const wrapped = degrees % 360;
  return wrapped < 0 ? wrapped + 360 : wrapped === 0 ? 0 : wrapped;
}

const NUMBER = '[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[+-]?\\d+)?';

interface Part {
  value: number;
  percent: boolean;
  unit: string;
}

function parsePart(text: string): Part | null {
  const match = new RegExp(`^(${NUMBER})(%|deg|grad|rad|turn)?$`, 'i').exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  if (!Number.isFinite(value)) return null;
  const unit = (match[2] ?? '').toLowerCase();
  return { value, percent: unit === '%', unit };
}

/** The arguments of `name(a b c / d)` or `name(a, b, c, d)`; null when the shape is wrong. */
function functionArguments(text: string, names: readonly string[]): { name: string; parts: Part[]; alpha: Part | null } | null {
  const match = /^([a-z]+)\(\s*([^()]*)\s*\)$/i.exec(text);
  if (!match) return null;
  const name = match[1]!.toLowerCase();
  if (!names.includes(name)) return null;
  const body = match[2]!.trim();
  let pieces: string[];
  let alphaText: string | null = null;
  if (body.includes(',')) {
    pieces = body.split(',').map((piece) => piece.trim());
    if (pieces.length === 4) alphaText = pieces.pop()!;
  } else {
    const [main, alpha, ...rest] = body.split('/').map((piece) => piece.trim());
    if (rest.length > 0 || main === undefined) return null;
    pieces = main.split(/\s+/);
    if (alpha !== undefined) alphaText = alpha;
  }
  if (pieces.length !== 3 || pieces.some((piece) => piece === '')) return null;
  const parts = pieces.map(parsePart);
  if (parts.some((part) => part === null)) return null;
  const alpha = alphaText === null ? null : parsePart(alphaText);
  if (alphaText !== null && (alpha === null || (alpha.unit !== '' && !alpha.percent))) return null;
  return { name, parts: parts as Part[], alpha };
}

function alphaOf(part: Part | null): number {
  if (part === null) return 1;
  return part.percent ? clamp(part.value, 0, 100) / 100 : clamp(part.value, 0, 1);
}

function hueOf(part: Part): number | null {
  if (part.percent) return null;
  const factor = { '': 1, deg: 1, grad: 0.9, rad: 180 / Math.PI, turn: 360 }[part.unit];
  return factor === undefined ? null : wrapHue(part.value * factor);
}

/** A percentage part (the % sign may be left out), clamped to 0–100. */
function percentOf(part: Part): number | null {
  if (part.unit !== '' && !part.percent) return null;
  return clamp(part.value, 0, 100);
}

/** Parses colour text in any of the four formats; null when it does not parse. */
export function parseColor(input: string): RgbaColor | null {
  const text = input.trim();
  if (text.startsWith('#')) {
    if (!/^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(text)) return null;
    return colord(text).toRgb();
  }
  const call = functionArguments(text, ['rgb', 'rgba', 'hsl', 'hsla', 'hwb']);
  if (!call) return null;
  const [first, second, third] = call.parts as [Part, Part, Part];
  const a = alphaOf(call.alpha);
  if (call.name.startsWith('rgb')) {
    const channel = (part: Part) =>
      part.unit !== '' && !part.percent ? null : part.percent ? (clamp(part.value, 0, 100) / 100) * 255 : clamp(part.value, 0, 255);
    const [r, g, b] = [channel(first), channel(second), channel(third)];
    if (r === null || g === null || b === null) return null;
    return colord({ r, g, b, a }).toRgb();
  }
  const h = hueOf(first);
  const x = percentOf(second);
  const y = percentOf(third);
  if (h === null || x === null || y === null) return null;
  if (call.name === 'hwb') return colord({ h, w: x, b: y, a }).toRgb();
  return colord({ h, s: x, l: y, a }).toRgb();
}

/** The format a colour text is written in, or null. */
export function formatOf(input: string): ColorFormat | null {
  const text = input.trim().toLowerCase();
  if (text.startsWith('#')) return 'hex';
  if (text.startsWith('rgb')) return 'rgb';
  if (text.startsWith('hsl')) return 'hsl';
  if (text.startsWith('hwb')) return 'hwb';
  return null;
}

/** Prints a colour in one format, with alpha only when it is below 1 (hex: 8 digits then). */
export function printColor(color: RgbaColor, format: ColorFormat): string {
  const value = colord(color);
  const a = round(value.alpha(), 2);
  const alpha = a < 1 ? ` / ${a}` : '';
  switch (format) {
    case 'hex':
      return value.toHex();
    case 'rgb': {
      const { r, g, b } = value.toRgb();
      return `rgb(${r} ${g} ${b}${alpha})`;
    }
    case 'hsl': {
      const { h, s, l } = value.toHsl();
      return `hsl(${h} ${s}% ${l}%${alpha})`;
    }
    case 'hwb': {
      const { h, w, b } = value.toHwb();
      return `hwb(${h} ${w}% ${b}%${alpha})`;
    }
  }
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
