import { toast } from 'sonner';

export type ToastType = 'info' | 'success' | 'warning' | 'error';

/** A toast at the spec's defaults; info unless told otherwise. */
export function showToast(message: string, type: ToastType = 'info'): string | number {
  return toast[type](message, { dismissible: true });
}
