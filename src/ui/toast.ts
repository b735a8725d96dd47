import { toast } from 'sonner';
import { wantToaster } from './toasterGate';

// The code that shows toasts has loaded (and sonner with it): the root shell mounts the toaster.
wantToaster();

export type ToastType = 'info' | 'success' | 'warning' | 'error';

/** A toast at the spec's defaults; info unless told otherwise. */
export function showToast(message: string, type: ToastType = 'info'): string | number {
  return toast[type](message, { dismissible: true });
}

export interface ToastAction {
  label: string;
  onClick: () => void;
}

/**
 * A toast that stays until its action is taken: no timeout, no close button, not swiped away.
 * `id` makes a second call replace the first instead of stacking.
 */
export function showActionToast(id: string, message: string, action: ToastAction): string | number {
  return toast.info(message, { id, duration: Number.POSITIVE_INFINITY, dismissible: false, closeButton: false, action });
}
