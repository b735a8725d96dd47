// Colour field (spec section 2, colour picker): a swatch that opens the picker — react-colorful
// with hue (0–360) and alpha (0–100) sliders — a text field and a format switch hex / hsl /
// hwb / rgb, all with alpha. Text is parsed by our rules (lib/colorInput.ts: unparseable text
// is ignored) and printed with colord. Arrow keys on the picker step 0.01 of a range, 0.1
// with Shift.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { HsvaColorPicker } from 'react-colorful';
import {
  COLOR_FORMATS,
  formatOf,
  fromHsva,
  parseColor,
  printColor,
  stepColor,
  toHsva,
  type ArrowKey,
  type ColorFormat,
  type Hsva,
  type PickerPart,
} from '../lib/colorInput';
import { DEFAULT_VISOR_COLOR } from '../protocol/workspace';
import { usePopover } from './usePopover';
import './pickers.css';

export interface ColorFieldProps {
  /** A CSS colour string. */
  value: string;
  onChange: (color: string) => void;
  /** Accessible label of the field, e.g. 'Color'. */
  label: string;
  id?: string;
}

const ARROWS = new Set<string>(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);
const PARTS: Array<[string, PickerPart]> = [
  ['react-colorful__saturation', 'saturation'],
  ['react-colorful__hue', 'hue'],
  ['react-colorful__alpha', 'alpha'],
];

function partOf(target: EventTarget): PickerPart | null {
  if (!(target instanceof HTMLElement)) return null;
  for (const [className, part] of PARTS) if (target.closest(`.${className}`)) return part;
  return null;
}

export function ColorField({ value, onChange, label, id }: ColorFieldProps) {
  const {
    open,
    toggle,
    attachAnchor,
    popup: { attach: attachPopup, style: popupStyle, onKeyDown: onPopupKeyDown },
  } = usePopover();
  const [format, setFormat] = useState<ColorFormat>(() => formatOf(value) ?? 'hsl');
  const [text, setText] = useState(value);
  const editing = useRef(false);
  const parsed = parseColor(value) ?? parseColor(DEFAULT_VISOR_COLOR)!;
  // The picker works in HSVA so the hue survives grey and black; kept while the popup is open.
  const [hsva, setHsva] = useState<Hsva>(() => toHsva(parsed));

  useEffect(() => {
    if (!editing.current) setText(value);
  }, [value]);

  const emit = (next: Hsva, inFormat = format) => {
    setHsva(next);
    const printed = printColor(fromHsva(next), inFormat);
    setText(printed);
    onChange(printed);
  };

  const onText = (next: string) => {
    setText(next);
    const color = parseColor(next);
    if (!color) return; // spec: unparseable values are ignored
    const nextFormat = formatOf(next) ?? format;
    setFormat(nextFormat);
    setHsva(toHsva(color));
    onChange(printColor(color, nextFormat));
  };

  const onPickerKeyDown = (event: KeyboardEvent) => {
    if (!ARROWS.has(event.key)) return;
    const part = partOf(event.target);
    if (!part) return;
    // Our steps replace react-colorful's fixed 0.05.
    event.preventDefault();
    event.stopPropagation();
    emit(stepColor(hsva, part, event.key as ArrowKey, event.shiftKey));
  };

  const choose = (nextFormat: ColorFormat) => {
    setFormat(nextFormat);
    const printed = printColor(fromHsva(hsva), nextFormat);
    setText(printed);
    onChange(printed);
  };

  return (
    <div className="color-field">
      <button
        ref={attachAnchor}
        type="button"
        className="color-field__swatch"
        aria-label={`Elegir ${label.toLowerCase()}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          if (!open) setHsva(toHsva(parsed));
          toggle();
        }}
      >
        <span className="color-field__chip" style={{ background: value }} />
      </button>
      <input
        id={id}
        className="color-field__text"
        aria-label={label}
        value={text}
        spellCheck={false}
        autoComplete="off"
        onFocus={() => (editing.current = true)}
        onBlur={() => {
          editing.current = false;
          setText(value);
        }}
        onChange={(event) => onText(event.target.value)}
      />
      {open && (
        <div
          ref={attachPopup}
          className="picker-popover color-picker"
          role="dialog"
          aria-label={`Selector de ${label.toLowerCase()}`}
          style={popupStyle}
          onKeyDown={onPopupKeyDown}
          onKeyDownCapture={onPickerKeyDown}
        >
          <HsvaColorPicker color={hsva} onChange={(next) => emit(next)} />
          <div className="color-picker__formats" role="radiogroup" aria-label="Formato">
            {COLOR_FORMATS.map((option) => (
              <button key={option} type="button" role="radio" aria-checked={format === option} className="color-picker__format" onClick={() => choose(option)}>
                {option.toUpperCase()}
              </button>
            ))}
          </div>
          <output className="color-picker__value" aria-label="Color elegido">
            {printColor(fromHsva(hsva), format)}
          </output>
        </div>
      )}
    </div>
  );
}
