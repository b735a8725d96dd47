// The emoji picker popup for every control that opens it (the Emoji field, the emoji button of
// a text input). The picker (ui/EmojiPickerPanel.tsx, emoji-picker-react) is a chunk of its
// own, loaded when a control that can open it mounts (the Carpeta and Visor forms), so it is
// usually there by the first click; until it is, the popup holds its place with a loading line.
// The 'Recently Used' group shows only with displayRecent (off by default, per spec) and only
// once there is something in it; it reads and writes the recent list in Dexie
// (data/recentEmojis.ts).
import { lazy, Suspense, useEffect } from 'react';
import type { EmojiClickData } from 'emoji-picker-react';
import { selectRecentEmoji, useRecentEmojis } from '../data/recentEmojis';
import type { ColorScheme } from './colorScheme';
import type { PopupBinding } from './usePopover';
import './pickers.css';

const loadPicker = () => import('./EmojiPickerPanel');
const EmojiPickerPanel = lazy(loadPicker);

/** The picker's size, which the popup keeps while the picker loads. */
const PICKER_SIZE = { width: 340, height: 400 };

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
  // The control is on screen: fetch the picker now rather than on its first click.
  useEffect(() => void loadPicker().catch(() => {}), []);
  if (!open) return null;
  // An empty recent group would leave a tab that leads nowhere.
  const showRecent = displayRecent && recents != null && recents.length > 0;

  const onEmojiClick = (data: EmojiClickData) => {
    if (displayRecent) void selectRecentEmoji({ u: data.unified, n: data.names });
    onPick(data.emoji);
  };

  return (
    <div ref={attach} className="picker-popover emoji-popover" role="dialog" aria-label="Selector de emoji" style={style} onKeyDown={onKeyDown}>
      <Suspense
        fallback={
          <p className="emoji-popover__loading" role="status" style={PICKER_SIZE}>
            Cargando…
          </p>
        }
      >
        <EmojiPickerPanel recent={showRecent ? recents.map((entry) => entry.u) : null} theme={theme} size={PICKER_SIZE} onEmojiClick={onEmojiClick} />
      </Suspense>
    </div>
  );
}
