// The 'Carpeta' and 'Visor' modals (spec sections 2, 4, 5): mounted once (by WorkspaceNav) and
// opened from anywhere through modalRequests.ts. They write through the data worker, which
// saves on the server and updates Dexie, so every tab's tree follows.
import { useEffect, useState, type FormEvent } from 'react';
import { dataWorker } from '../../data/worker';
import { useFolderTree, useVisor } from '../../data/workspace';
import { findFolder } from '../../lib/folderTree';
import { useCurrentUser } from '../auth/useCurrentUser';
import { Dialog } from '../../ui/Dialog';
import { EmojiField } from '../../ui/EmojiField';
import { EmojiTextInput } from '../../ui/EmojiTextInput';
import { ColorField, DEFAULT_VISOR_COLOR } from '../../ui/ColorField';
import { onWorkspaceModalRequest, type WorkspaceModalRequest } from './modalRequests';

export const EMPTY_TITLE = 'El título no puede estar vacío';

/** The message of a failed worker call ({code, message} across Comlink). */
export function errorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' && error.message) return error.message;
  return 'No se pudo guardar: intentá de nuevo';
}

export function WorkspaceModals() {
  const [request, setRequest] = useState<WorkspaceModalRequest | null>(null);
  // A new key per request: the form starts from its initial values every time it opens.
  const [serial, setSerial] = useState(0);
  useEffect(
    () =>
      onWorkspaceModalRequest((next) => {
        setRequest(next);
        setSerial((value) => value + 1);
      }),
    [],
  );
  const close = () => setRequest(null);
  if (!request) return null;
  return request.kind === 'folder' ? <FolderModal key={serial} request={request} onClose={close} /> : <VisorModal key={serial} request={request} onClose={close} />;
}

function useSaving() {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return { saving, setSaving, error, setError };
}

/** Título, with an emoji button that puts the chosen emoji where the cursor is. */
function TitleField({ id, value, onChange, placeholder, invalid }: { id: string; value: string; onChange: (value: string) => void; placeholder: string; invalid: boolean }) {
  return (
    <div className="dialog__field">
      <label className="dialog__label" htmlFor={id}>
        Título
      </label>
      <EmojiTextInput
        id={id}
        value={value}
        placeholder={placeholder}
        aria-invalid={invalid}
        autoFocus
        autoComplete="off"
        emojiButtonLabel="Insertar emoji en el título"
        onChange={onChange}
      />
    </div>
  );
}

function Actions({ saving, onClose }: { saving: boolean; onClose: () => void }) {
  return (
    <div className="dialog__actions">
      <button type="button" className="button" onClick={onClose}>
        Cerrar
      </button>
      <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving}>
        {saving && <span className="spinner" role="status" aria-label="Guardando" />}
        Guardar
      </button>
    </div>
  );
}

function FolderModal({ request, onClose }: { request: Extract<WorkspaceModalRequest, { kind: 'folder' }>; onClose: () => void }) {
  const user = useCurrentUser();
  const tree = useFolderTree(user._id);
  const editing = request.mode === 'edit' ? findFolder(tree?.nodes ?? [], request.folderId) : null;
  const [title, setTitle] = useState('');
  const [emoji, setEmoji] = useState('');
  const [prefilled, setPrefilled] = useState(request.mode === 'create');
  const [titleError, setTitleError] = useState<string | null>(null);
  const { saving, setSaving, error, setError } = useSaving();

  if (!prefilled && editing) {
    setPrefilled(true);
    setTitle(editing.name);
    setEmoji(editing.emoji);
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === '') {
      setTitleError(EMPTY_TITLE);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await dataWorker().changeTree(
        request.mode === 'create'
          ? { kind: 'addFolder', parentId: request.parentId, name: title.trim(), emoji }
          : { kind: 'editFolder', folderId: request.folderId, name: title.trim(), emoji },
      );
      setTitle('');
      setEmoji('');
      onClose();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} title="Carpeta">
      <form className="dialog__form" onSubmit={submit} noValidate>
        <TitleField
          id="folder-title"
          value={title}
          placeholder="Título de la carpeta"
          invalid={titleError != null}
          onChange={(value) => {
            setTitle(value);
            setTitleError(null);
          }}
        />
        {titleError && <p className="form-error">{titleError}</p>}
        <div className="dialog__field">
          <span className="dialog__label">Emoji</span>
          <EmojiField label="Emoji" value={emoji} onChange={setEmoji} displayRecent />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <Actions saving={saving} onClose={onClose} />
      </form>
    </Dialog>
  );
}

function VisorModal({ request, onClose }: { request: Extract<WorkspaceModalRequest, { kind: 'visor' }>; onClose: () => void }) {
  const user = useCurrentUser();
  const visor = useVisor(user._id, request.mode === 'edit' ? request.visorId : null);
  const [title, setTitle] = useState('');
  const [emoji, setEmoji] = useState('');
  const [color, setColor] = useState(DEFAULT_VISOR_COLOR);
  const [prefilled, setPrefilled] = useState(request.mode === 'create');
  const [titleError, setTitleError] = useState<string | null>(null);
  const { saving, setSaving, error, setError } = useSaving();

  if (!prefilled && visor) {
    setPrefilled(true);
    setTitle(visor.title);
    setEmoji(visor.emoji);
    setColor(visor.color || DEFAULT_VISOR_COLOR);
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === '') {
      setTitleError(EMPTY_TITLE);
      return;
    }
    setSaving(true);
    setError(null);
    const fields = { title: title.trim(), emoji, color };
    try {
      if (request.mode === 'create') await dataWorker().createVisor(fields, request.parentId);
      else await dataWorker().updateVisor(request.visorId, fields);
      setTitle('');
      setEmoji('');
      setColor(DEFAULT_VISOR_COLOR);
      onClose();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} title="Visor">
      <form className="dialog__form" onSubmit={submit} noValidate>
        <TitleField
          id="visor-title"
          value={title}
          placeholder="Título del visor"
          invalid={titleError != null}
          onChange={(value) => {
            setTitle(value);
            setTitleError(null);
          }}
        />
        {titleError && <p className="form-error">{titleError}</p>}
        <div className="dialog__field">
          <span className="dialog__label">Emoji</span>
          <EmojiField label="Emoji" value={emoji} onChange={setEmoji} displayRecent />
        </div>
        <div className="dialog__field">
          <label className="dialog__label" htmlFor="visor-color">
            Color
          </label>
          <ColorField id="visor-color" label="Color" value={color} onChange={setColor} />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <Actions saving={saving} onClose={onClose} />
      </form>
    </Dialog>
  );
}
