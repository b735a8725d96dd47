// The toaster itself (sonner), a chunk of its own: ui/AppToaster.tsx mounts it once a screen
// that can show a toast has loaded (ui/toast.ts says so), so the sign-in page does not load it.
import { Toaster } from 'sonner';
import type { ColorScheme } from './colorScheme';

/** Spec section 2 toast defaults: top-right, offset 20 px, gap 10 px, z-index 1031, 5000 ms, dismissible. */
export const TOAST_DEFAULTS = { position: 'top-right', offset: 20, gap: 10, zIndex: 1031, duration: 5000 } as const;

export default function SonnerToaster({ theme }: { theme: ColorScheme }) {
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
