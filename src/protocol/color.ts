// Colour text (spec section 2 and the validation rules of section 4), one definition for the
// colour picker's text field and the server: hex, rgb(a), hsl(a) and hwb, each with alpha,
// and CSS colour names. Parsing is our own so the spec's rules hold exactly — hex only with
// 3, 4, 6 or 8 digits; percentages clamped 0–100; hue wrapping at 360; RGB channels clamped
// 0–255; alpha 0–1; anything else does not parse (null) — and colord converts between the
// formats and prints them. The server stores a visor's colour as normalizeColor prints it
// (issue 17: any other text, `url(…)` or a second declaration, is refused).
import { colord, extend, type RgbaColor } from 'colord';
import hwbPlugin from 'colord/plugins/hwb';
import namesPlugin from 'colord/plugins/names';

extend([hwbPlugin, namesPlugin]);

export type ColorFormat = 'hex' | 'hsl' | 'hwb' | 'rgb';
export const COLOR_FORMATS: readonly ColorFormat[] = ['hex', 'hsl', 'hwb', 'rgb'];

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
export const round = (value: number, digits = 2) => {
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

const PART = new RegExp(`^(${NUMBER})(%|deg|grad|rad|turn)?$`, 'i');

function parsePart(text: string): Part | null {
  const match = PART.exec(text);
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

/** Parses colour text in any of the four formats, or a CSS colour name; null when it does not parse. */
export function parseColor(input: string): RgbaColor | null {
  const text = input.trim();
  if (/^[a-z]{3,30}$/i.test(text)) {
    const named = colord(text.toLowerCase());
    return named.isValid() ? named.toRgb() : null;
  }
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

/**
 * Colour text as the server stores it, or null when it is not a colour: printed as the colour
 * picker prints it, in the format it was written in (rgba and hsla as rgb and hsl with
 * alpha), a colour name as hex. hsl and hwb keep their own numbers, rounded as the picker
 * rounds them (through RGB they would drift by a degree or a percent on every save), so the
 * picker's own output comes back unchanged.
 */
export function normalizeColor(input: string): string | null {
  const color = parseColor(input);
  if (!color) return null;
  const format = formatOf(input) ?? 'hex';
  if (format !== 'hsl' && format !== 'hwb') return printColor(color, format);
  const call = functionArguments(input.trim(), ['hsl', 'hsla', 'hwb'])!;
  const [first, second, third] = call.parts as [Part, Part, Part];
  const alpha = round(alphaOf(call.alpha), 2);
  const h = Math.round(hueOf(first)!) % 360;
  return `${format}(${h} ${Math.round(percentOf(second)!)}% ${Math.round(percentOf(third)!)}%${alpha < 1 ? ` / ${alpha}` : ''})`;
}
