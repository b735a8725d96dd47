import { toast } from 'sonner';
import { wantToaster } from './toasterGate';

// The code that shows toasts has loaded (and sonner with it): the root shell mounts the toaster.
wantToaster();

export type ToastType = 'info' | 'success' | 'warning' | 'error';

/** A toast at the spec's defaults; info unless told otherwise. */
export function showToast(message: string, type: ToastType = 'info'): string | number {
  return toast[type](message, { dismissible: true });
}
