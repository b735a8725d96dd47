import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { ColorScheme } from './colorScheme';
import { subscribeToaster, toasterWanted } from './toasterGate';

type ToasterModule = typeof import('./SonnerToaster');

/**
 * The toaster's chunk, asked for again (after 1 s, doubling to 30 s) until it loads. React.lazy
 * throws a failed import to the root's error page: a first toast wanted while the network was
 * down (an offline replay's message) took the whole app to «Algo salió mal» (seen in CI).
 */
function loadToaster(attempt = 0): Promise<ToasterModule> {
  return import('./SonnerToaster').catch(
    () => new Promise<ToasterModule>((resolve) => setTimeout(() => resolve(loadToaster(attempt + 1)), Math.min(30_000, 1000 * 2 ** attempt))),
  );
}

const SonnerToaster = lazy(() => loadToaster());

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
