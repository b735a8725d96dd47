// Emoji field (spec section 2, emoji picker): a button showing the chosen emoji that opens the
// spec's emoji picker (ui/EmojiPopover.tsx) and a button to clear it.
import { useColorScheme, type ColorScheme } from './colorScheme';
import { Emoji } from './Emoji';
import { EmojiPopover } from './EmojiPopover';
import { usePopover } from './usePopover';

export interface EmojiFieldProps {
  /** The emoji as text, or '' for none. */
  value: string;
  onChange: (emoji: string) => void;
  /** Accessible label of the field, e.g. 'Emoji'. */
  label: string;
  id?: string;
  /** Shows the 'Recently Used' group (spec default: off). */
  displayRecent?: boolean;
  /** The picker's colour mode; by default the root shell's (ui/colorScheme.ts). */
  theme?: ColorScheme;
}

export function EmojiField({ value, onChange, label, id, displayRecent = false, theme }: EmojiFieldProps) {
  const { open, toggle, close, attachAnchor, popup } = usePopover();
  const scheme = useColorScheme();
  return (
    <div className="emoji-field">
      <button
        ref={attachAnchor}
        id={id}
        type="button"
        className="emoji-field__button"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-value={value}
        onClick={toggle}
      >
        {value ? <Emoji emoji={value} /> : <span className="emoji-field__empty">Elegir</span>}
      </button>
      {value && (
        <button type="button" className="emoji-field__clear" aria-label={`Quitar ${label.toLowerCase()}`} onClick={() => onChange('')}>
          ×
        </button>
      )}
      <EmojiPopover
        popup={popup}
        displayRecent={displayRecent}
        theme={theme ?? scheme}
        onPick={(emoji) => {
          onChange(emoji);
          close(true);
        }}
      />
    </div>
  );
}
