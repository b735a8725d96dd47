// Whether the browser says it has a network (navigator.onLine and its events).
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/** Why controls that need the server are off while offline. */
export const OFFLINE_REASON = 'Sin conexión: los cambios necesitan el servidor';
