import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { ColorScheme } from './colorScheme';
import { subscribeToaster, toasterWanted } from './toasterGate';

const SonnerToaster = lazy(() => import('./SonnerToaster'));

/** Mounted once in the root shell, in the app's colour mode; loads sonner once a toast can be shown (toasterGate.ts). */
export function AppToaster({ theme }: { theme: ColorScheme }) {
  const wanted = useSyncExternalStore(subscribeToaster, toasterWanted);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster theme={theme} />
    </Suspense>
  );
}
