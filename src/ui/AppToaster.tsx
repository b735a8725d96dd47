import { Toaster } from 'sonner';
import type { ColorScheme } from './colorScheme';

/** Spec section 2 toast defaults: top-right, offset 20 px, gap 10 px, z-index 1031, 5000 ms, dismissible. */
export const TOAST_DEFAULTS = { position: 'top-right', offset: 20, gap: 10, zIndex: 1031, duration: 5000 } as const;

/** Mounted once in the root shell, in the app's colour mode. */
export function AppToaster({ theme }: { theme: ColorScheme }) {
  return (
    <Toaster
      position={TOAST_DEFAULTS.position}
      offset={TOAST_DEFAULTS.offset}
      gap={TOAST_DEFAULTS.gap}
      duration={TOAST_DEFAULTS.duration}
      style={{ zIndex: TOAST_DEFAULTS.zIndex }}
      theme={theme}
      closeButton
      richColors
    />
  );
}
