// The offer of a new build (issue 21): a toast that stays until the user takes it. The service
// worker's end (data/serviceWorker.ts) applies the update only from its action.
import { showActionToast } from '../../ui/toast';

export const UPDATE_TOAST_ID = 'app-update';
export const UPDATE_MESSAGE = 'Hay una nueva versión';
export const UPDATE_ACTION = 'Actualizar';

export function offerUpdate(accept: () => void): void {
  showActionToast(UPDATE_TOAST_ID, UPDATE_MESSAGE, { label: UPDATE_ACTION, onClick: accept });
}
