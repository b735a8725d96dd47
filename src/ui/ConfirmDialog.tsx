// The delete confirmation of spec section 8: '¿Estas seguro?', '¡No podrás revertir esto!', a
// warning icon, and the buttons 'Si, borrar' / 'No, cancelar' in reversed order (cancel
// first). Only the confirm button goes on. Another confirmation (a feed's stop) gives its own
// text and confirm label in the same dialog. An action that needs the server passes why it is
// off now (`disabledReason`: the offline reason, issue 21): the confirm button is off with it as
// its title, also when the network goes with the dialog open.
import { useId } from 'react';
import { Dialog } from './Dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** What the action does; the spec's delete text by default. */
  text?: string;
  /** The confirm button; the spec's 'Si, borrar' by default. */
  confirmLabel?: string;
  /** Why the confirm button is off now (its title), or null/absent: on. */
  disabledReason?: string | null;
}

export function ConfirmDialog({
  open,
  onConfirm,
  onCancel,
  text = '¡No podrás revertir esto!',
  confirmLabel = 'Si, borrar',
  disabledReason = null,
}: ConfirmDialogProps) {
  const textId = useId();
  return (
    <Dialog open={open} onClose={onCancel} title="¿Estas seguro?" className="dialog--confirm" alert describedBy={textId}>
      <div className="confirm__icon" aria-hidden="true">
        !
      </div>
      <p id={textId} className="confirm__text">
        {text}
      </p>
      <div className="dialog__actions dialog__actions--center">
        <button type="button" className="button button--secondary" onClick={onCancel} autoFocus>
          No, cancelar
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm} disabled={disabledReason != null} title={disabledReason ?? undefined}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
