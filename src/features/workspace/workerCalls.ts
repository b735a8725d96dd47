// The workspace's writes go through the data worker; this is how their failures show.
import { showToast } from '../../ui/toast';

/** The message of a failed worker call ({code, message} across Comlink). */
export function errorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' && error.message) return error.message;
  return 'No se pudo guardar: intentá de nuevo';
}

/** Starts a worker call without waiting for it; a failure shows as an error toast. */
export function runShowingErrors(action: () => Promise<unknown>): void {
  action().catch((error: unknown) => showToast(errorMessage(error), 'error'));
}
