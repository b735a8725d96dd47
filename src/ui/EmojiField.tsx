// Emoji field (spec section 2, emoji picker): a button showing the chosen emoji that opens
// emoji-picker-react configured to the spec — groups and labels in the spec's order, 'Search
// emoji', 'Skin tone', 'No emoji has been found!', six skin tones, a theme following the app,
// 64 px Apple images served by our own server (/emoji, cached by the browser, so the picker
// works offline). The 'Recently Used' group shows only with displayRecent (off by default, per
// spec); it reads and writes the recent list in Dexie (data/recentEmojis.ts).
import EmojiPicker, { Categories, EmojiStyle, Theme, type EmojiClickData } from 'emoji-picker-react';
import { darkModeAtom, appearanceStore, useAtomValue } from '../features/appearance/appearance';
import { selectRecentEmoji, useRecentEmojis } from '../data/recentEmojis';
import { emojiImageUrl, Emoji } from './Emoji';
import { usePopover } from './usePopover';
import './pickers.css';

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

// Spec section 2: groups in order, with their labels.
export const EMOJI_GROUPS = [
  { category: Categories.SUGGESTED, name: 'Recently Used' },
  { category: Categories.SMILEYS_PEOPLE, name: 'Smiles & People' },
  { category: Categories.ANIMALS_NATURE, name: 'Animals & Nature' },
  { category: Categories.FOOD_DRINK, name: 'Food & Drink' },
  { category: Categories.ACTIVITIES, name: 'Activities' },
  { category: Categories.TRAVEL_PLACES, name: 'Travel & Places' },
  { category: Categories.OBJECTS, name: 'Objects' },
  { category: Categories.SYMBOLS, name: 'Symbols' },
  { category: Categories.FLAGS, name: 'Flags' },
];

const LABELS = {
  searchPlaceholder: 'Search emoji',
  searchLabel: 'Search emoji',
  searchResultsNone: 'No emoji has been found!',
  skinToneNeutral: 'Skin tone: neutral',
  skinToneLight: 'Skin tone: light',
  skinToneMediumLight: 'Skin tone: medium-light',
  skinToneMedium: 'Skin tone: medium',
  skinToneMediumDark: 'Skin tone: medium-dark',
  skinToneDark: 'Skin tone: dark',
};

const THEMES = { light: Theme.LIGHT, dark: Theme.DARK, system: Theme.AUTO } as const;

export function EmojiField({ value, onChange, label, id, displayRecent = false }: EmojiFieldProps) {
  const popover = usePopover();
  const mode = useAtomValue(darkModeAtom, appearanceStore);
  const recents = useRecentEmojis();

  const onEmojiClick = (data: EmojiClickData) => {
    onChange(data.emoji);
    popover.close(true);
    if (displayRecent) void selectRecentEmoji({ u: data.unified, n: data.names });
  };

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
      {popover.open && (
        <div
          ref={popover.popoverRef}
          className="picker-popover emoji-popover"
          role="dialog"
          aria-label="Selector de emoji"
          style={popover.popoverStyle}
          onKeyDown={popover.onPopoverKeyDown}
        >
          <EmojiPicker
            emojiStyle={EmojiStyle.APPLE}
            getEmojiUrl={(unified) => emojiImageUrl(unified)}
            categories={displayRecent ? EMOJI_GROUPS : EMOJI_GROUPS.slice(1)}
            suggestedEmojis={displayRecent ? (recents ?? []).map((entry) => entry.u) : undefined}
            labels={LABELS}
            theme={THEMES[mode]}
            defaultSkinTone="neutral"
            previewConfig={{ showPreview: false }}
            lazyLoadEmojis
            width={340}
            height={400}
            onEmojiClick={onEmojiClick}
          />
        </div>
      )}
    </div>
  );
}
