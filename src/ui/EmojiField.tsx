// Emoji field: a button showing the chosen emoji that opens the picker (issue 6).
// Placeholder body: the picker (emoji-picker-react configured to the spec) replaces it.
export interface EmojiFieldProps {
  /** The emoji as text, or '' for none. */
  value: string;
  onChange: (emoji: string) => void;
  /** Accessible label of the field, e.g. 'Emoji'. */
  label: string;
  id?: string;
}

export function EmojiField({ value, onChange, label, id }: EmojiFieldProps) {
  return <input id={id} aria-label={label} value={value} onChange={(event) => onChange(event.target.value)} />;
}
