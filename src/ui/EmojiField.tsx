// Emoji field (spec section 2, emoji picker): a button showing the chosen emoji that opens the
// spec's emoji picker (ui/EmojiPopover.tsx) and a button to clear it.
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
}

export function EmojiField({ value, onChange, label, id, displayRecent = false }: EmojiFieldProps) {
  const popover = usePopover();
  return (
    <div className="emoji-field">
      <button
        ref={popover.anchorRef}
        id={id}
        type="button"
        className="emoji-field__button"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={popover.open}
        data-value={value}
        onClick={popover.toggle}
      >
        {value ? <Emoji emoji={value} /> : <span className="emoji-field__empty">Elegir</span>}
      </button>
      {value && (
        <button type="button" className="emoji-field__clear" aria-label={`Quitar ${label.toLowerCase()}`} onClick={() => onChange('')}>
          ×
        </button>
      )}
      <EmojiPopover
        popover={popover}
        displayRecent={displayRecent}
        onPick={(emoji) => {
          onChange(emoji);
          popover.close(true);
        }}
      />
    </div>
  );
}
