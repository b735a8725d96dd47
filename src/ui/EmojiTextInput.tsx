// A text input with an emoji button beside it (spec section 2, insert modes for inputs): the
// chosen emoji goes in front of the text ('prepend'), where the cursor was or over the
// selected text ('insert', the default) or at the end ('append'); the input gets the focus
// back with the cursor just after the emoji.
import { useLayoutEffect, useRef, type InputHTMLAttributes } from 'react';
import { insertEmoji, type InsertMode } from '../lib/emojiText';
import { useColorScheme, type ColorScheme } from './colorScheme';
import { EmojiPopover } from './EmojiPopover';
import { Icon } from './Icon';
import { usePopover } from './usePopover';

export interface EmojiTextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  /** Where the chosen emoji goes (spec default: 'insert', at the cursor). */
  insertMode?: InsertMode;
  /** Accessible label of the emoji button. */
  emojiButtonLabel: string;
  /** Shows the 'Recently Used' group (spec default: off). */
  displayRecent?: boolean;
  /** The picker's colour mode; by default the root shell's (ui/colorScheme.ts). */
  theme?: ColorScheme;
}

export function EmojiTextInput({ value, onChange, insertMode = 'insert', emojiButtonLabel, displayRecent = false, theme, ...inputProps }: EmojiTextInputProps) {
  const { open, toggle, close, attachAnchor, popup } = usePopover();
  const scheme = useColorScheme();
  const inputRef = useRef<HTMLInputElement>(null);
  const pendingCursor = useRef<number | null>(null);

  // After the text with the emoji is rendered: focus and cursor back in the input.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (pendingCursor.current == null || !input) return;
    input.focus();
    input.setSelectionRange(pendingCursor.current, pendingCursor.current);
    pendingCursor.current = null;
  }, [value]);

  const onPick = (emoji: string) => {
    const input = inputRef.current;
    // A blurred input keeps its selection, so this is where the cursor was before the button.
    const start = input?.selectionStart ?? value.length;
    const end = input?.selectionEnd ?? start;
    const next = insertEmoji(value, emoji, insertMode, start, end);
    pendingCursor.current = next.cursor;
    close();
    onChange(next.text);
  };

  return (
    <div className="emoji-text-input">
      <input {...inputProps} ref={inputRef} value={value} onChange={(event) => onChange(event.target.value)} />
      <button
        ref={attachAnchor}
        type="button"
        className="emoji-text-input__button"
        aria-label={emojiButtonLabel}
        title={emojiButtonLabel}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={toggle}
      >
        <Icon name="smile" />
      </button>
      <EmojiPopover popup={popup} displayRecent={displayRecent} theme={theme ?? scheme} onPick={onPick} />
    </div>
  );
}
