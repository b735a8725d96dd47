// An accessible modal dialog on the native <dialog>: showModal() makes the rest of the page
// inert (focus stays inside), Escape closes it through onClose, and the title labels it.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import './dialog.css';

export interface DialogProps {
  open: boolean;
  /** Escape, a close button or a click on the backdrop. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Extra class for sizing (e.g. 'dialog--small'). */
  className?: string;
  /** role="alertdialog" for confirmations. */
  alert?: boolean;
  describedBy?: string;
}

export function Dialog({ open, onClose, title, children, className, alert, describedBy }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      role={alert ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(event) => {
        // Escape: the dialog stays under React's control.
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        if (event.target === ref.current) onClose(); // the backdrop
      }}
    >
      {open && (
        <div className="dialog__body">
          <h2 className="dialog__title" id={titleId}>
            {title}
          </h2>
          {children}
        </div>
      )}
    </dialog>
  );
}
