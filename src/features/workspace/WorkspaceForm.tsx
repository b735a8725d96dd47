// The form the Carpeta and Visor modals share: Título (with an emoji button), Emoji, whatever
// the modal adds (the visor's Color), the save error, Cerrar and Guardar. useWorkspaceForm
// holds the fields, fills them once from the edited item when it has loaded, checks the title
// and runs the save.
import { useState, type FormEvent, type ReactNode } from 'react';
import { TITLE_REQUIRED } from '../../protocol/workspace';
import { Dialog } from '../../ui/Dialog';
import { EmojiField } from '../../ui/EmojiField';
import { EmojiTextInput } from '../../ui/EmojiTextInput';
import { errorMessage } from './workerCalls';

export interface TitledFields {
  title: string;
  emoji: string;
}

/** What the form shows and calls. */
export interface WorkspaceFormState {
  fields: TitledFields;
  setTitle: (title: string) => void;
  setEmoji: (emoji: string) => void;
  /** The empty-title message, shown under Título until it is edited. */
  titleError: string | null;
  saving: boolean;
  /** The failed save's message. */
  error: string | null;
  submit: (event: FormEvent) => Promise<void>;
}

interface WorkspaceFormOptions<F extends TitledFields> {
  creating: boolean;
  /** The fields of a new item. */
  empty: F;
  /** The edited item's fields once they are read (null or undefined until then, and when creating). */
  loaded: F | null | undefined;
  /** Gets the fields with the title trimmed; rejects with the worker's error. */
  save: (fields: F) => Promise<unknown>;
  /** Called after a save that worked. */
  onClose: () => void;
}

export function useWorkspaceForm<F extends TitledFields>({
  creating,
  empty,
  loaded,
  save,
  onClose,
}: WorkspaceFormOptions<F>): WorkspaceFormState & {
  fields: F;
  set: <K extends keyof F>(key: K, value: F[K]) => void;
} {
  const [fields, setFields] = useState<F>(empty);
  const [prefilled, setPrefilled] = useState(creating);
  const [titleError, setTitleError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!prefilled && loaded) {
    setPrefilled(true);
    setFields(loaded);
  }

  const set = <K extends keyof F>(key: K, value: F[K]) => setFields((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (fields.title.trim() === '') {
      setTitleError(TITLE_REQUIRED);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await save({ ...fields, title: fields.title.trim() });
      onClose();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setSaving(false);
    }
  };

  const setTitle = (title: string) => {
    setFields((current) => ({ ...current, title }));
    setTitleError(null);
  };
  const setEmoji = (emoji: string) => setFields((current) => ({ ...current, emoji }));
  return { fields, set, setTitle, setEmoji, titleError, saving, error, submit };
}

interface WorkspaceFormProps {
  /** The dialog's title: 'Carpeta' or 'Visor'. */
  title: string;
  /** The title input's id: 'folder-title', 'visor-title'. */
  titleId: string;
  titlePlaceholder: string;
  form: WorkspaceFormState;
  onClose: () => void;
  /** Fields after Emoji. */
  children?: ReactNode;
}

export function WorkspaceForm({ title, titleId, titlePlaceholder, form, onClose, children }: WorkspaceFormProps) {
  return (
    <Dialog open onClose={onClose} title={title}>
      <form className="dialog__form" onSubmit={form.submit} noValidate>
        <div className="dialog__field">
          <label className="dialog__label" htmlFor={titleId}>
            Título
          </label>
          <EmojiTextInput
            id={titleId}
            value={form.fields.title}
            placeholder={titlePlaceholder}
            aria-invalid={form.titleError != null}
            autoFocus
            autoComplete="off"
            emojiButtonLabel="Insertar emoji en el título"
            onChange={form.setTitle}
          />
        </div>
        {form.titleError && <p className="form-error">{form.titleError}</p>}
        <div className="dialog__field">
          <span className="dialog__label">Emoji</span>
          <EmojiField label="Emoji" value={form.fields.emoji} onChange={form.setEmoji} displayRecent />
        </div>
        {children}
        {form.error && (
          <p className="form-error" role="alert">
            {form.error}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Cerrar
          </button>
          <button type="submit" className="button button--primary" disabled={form.saving} aria-busy={form.saving}>
            {form.saving && <span className="spinner" role="status" aria-label="Guardando" />}
            Guardar
          </button>
        </div>
      </form>
    </Dialog>
  );
}
