// Whether the toaster is wanted yet. ui/toast.ts, the one way the app shows a toast, says so when
// it loads (with the first screen that can show one); until then the root shell does not load
// sonner (issue 21: the sign-in route's JavaScript budget). A toast shown before the toaster
// mounted is not lost: sonner hands a new Toaster the toasts that are still active.
const listeners = new Set<() => void>();
let wanted = false;

export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export function toasterWanted(): boolean {
  return wanted;
}

export function subscribeToaster(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
