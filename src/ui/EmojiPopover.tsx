// The emoji picker popup, configured once to the spec (section 2) for every control that
// opens it (the Emoji field, the emoji button of a text input): groups and labels in the
// spec's order, 'Search emoji', 'Skin tone', 'No emoji has been found!', six skin tones, the
// app's colour mode (given by the control), 64 px Apple images served by our own server (/emoji, cached by
// the browser, so the picker works offline). The 'Recently Used' group shows only with
// displayRecent (off by default, per spec) and only once there is something in it; it reads
// and writes the recent list in Dexie (data/recentEmojis.ts).
import EmojiPicker, { Categories, EmojiStyle, Theme, type EmojiClickData } from 'emoji-picker-react';
import { selectRecentEmoji, useRecentEmojis } from '../data/recentEmojis';
import type { ColorScheme } from './colorScheme';
import { emojiImageUrl } from './Emoji';
import type { PopupBinding } from './usePopover';
import './pickers.css';

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

export interface EmojiPopoverProps {
  /** The popup's binding from the control that opens the picker (ui/usePopover.ts). */
  popup: PopupBinding;
  /** Shows the 'Recently Used' group (spec default: off). */
  displayRecent?: boolean;
  /** The app's colour mode. */
  theme: ColorScheme;
  /** The chosen emoji as text; the popup closes itself afterwards. */
  onPick: (emoji: string) => void;
}

/** Renders nothing while the popover is closed. */
export function EmojiPopover({ popup: { open, attach, style, onKeyDown }, displayRecent = false, theme, onPick }: EmojiPopoverProps) {
  const recents = useRecentEmojis();
  if (!open) return null;
  // An empty recent group would leave a tab that leads nowhere.
  const showRecent = displayRecent && recents != null && recents.length > 0;

  const onEmojiClick = (data: EmojiClickData) => {
    if (displayRecent) void selectRecentEmoji({ u: data.unified, n: data.names });
    onPick(data.emoji);
  };

  return (
    <div ref={attach} className="picker-popover emoji-popover" role="dialog" aria-label="Selector de emoji" style={style} onKeyDown={onKeyDown}>
      <EmojiPicker
        emojiStyle={EmojiStyle.APPLE}
        getEmojiUrl={(unified) => emojiImageUrl(unified)}
        categories={showRecent ? EMOJI_GROUPS : EMOJI_GROUPS.slice(1)}
        suggestedEmojis={showRecent ? recents.map((entry) => entry.u) : undefined}
        labels={LABELS}
        theme={THEMES[theme]}
        defaultSkinTone="neutral"
        previewConfig={{ showPreview: false }}
        lazyLoadEmojis
        width={340}
        height={400}
        onEmojiClick={onEmojiClick}
      />
    </div>
  );
}
