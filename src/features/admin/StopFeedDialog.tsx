// The confirmation before a feed stops: the spec's confirm dialog (section 8: '¿Estas
// seguro?', the warning icon, cancel first), with what stopping does instead of deleting.
import { useId } from 'react';
import { Dialog } from '../../ui/Dialog';

export function StopFeedDialog({ open, feed, onConfirm, onCancel }: { open: boolean; feed: string; onConfirm: () => void; onCancel: () => void }) {
  const textId = useId();
  return (
    <Dialog open={open} onClose={onCancel} title="¿Estas seguro?" className="dialog--confirm" alert describedBy={textId}>
      <div className="confirm__icon" aria-hidden="true">
        !
      </div>
      <p id={textId} className="confirm__text">
        El data center {feed} dejará de enviar precios a todos los usuarios hasta que lo vuelva a iniciar.
      </p>
      <div className="dialog__actions dialog__actions--center">
        <button type="button" className="button button--secondary" onClick={onCancel} autoFocus>
          No, cancelar
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          Sí, detener
        </button>
      </div>
    </Dialog>
  );
}
