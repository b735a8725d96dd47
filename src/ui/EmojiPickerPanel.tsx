// The emoji picker itself (emoji-picker-react), configured once to the spec (section 2): groups
// and labels in the spec's order, 'Search emoji', 'Skin tone', 'No emoji has been found!', six
// skin tones, the app's colour mode, 64 px Apple images served by our own server (/emoji, cached
// by the browser, so the picker works offline). A chunk of its own (issue 21: the library is the
// app's largest); ui/EmojiPopover.tsx loads it when a form with an emoji control opens.
import EmojiPicker, { Categories, EmojiStyle, Theme, type EmojiClickData } from 'emoji-picker-react';
import type { ColorScheme } from './colorScheme';
import { emojiImageUrl } from './Emoji';

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

export interface EmojiPickerPanelProps {
  /** The unified codes of the 'Recently Used' group, or null to leave the group out. */
  recent: string[] | null;
  theme: ColorScheme;
  size: { width: number; height: number };
  onEmojiClick: (data: EmojiClickData) => void;
}

export default function EmojiPickerPanel({ recent, theme, size, onEmojiClick }: EmojiPickerPanelProps) {
  return (
    <EmojiPicker
      emojiStyle={EmojiStyle.APPLE}
      getEmojiUrl={(unified) => emojiImageUrl(unified)}
      categories={recent ? EMOJI_GROUPS : EMOJI_GROUPS.slice(1)}
      suggestedEmojis={recent ?? undefined}
      labels={LABELS}
      theme={THEMES[theme]}
      defaultSkinTone="neutral"
      previewConfig={{ showPreview: false }}
      lazyLoadEmojis
      width={size.width}
      height={size.height}
      onEmojiClick={onEmojiClick}
    />
  );
}
