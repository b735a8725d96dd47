// Colour field: a swatch that opens the colour picker (issue 6).
// Placeholder body: react-colorful + colord with the spec's formats replaces it.
export const DEFAULT_VISOR_COLOR = 'hsl(270 100% 50% / 0.8)';

export interface ColorFieldProps {
  /** A CSS colour string. */
  value: string;
  onChange: (color: string) => void;
  /** Accessible label of the field, e.g. 'Color'. */
  label: string;
  id?: string;
}

export function ColorField({ value, onChange, label, id }: ColorFieldProps) {
  return <input id={id} aria-label={label} value={value} onChange={(event) => onChange(event.target.value)} />;
}
