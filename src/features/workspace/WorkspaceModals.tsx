// The 'Carpeta' and 'Visor' modals (spec sections 2, 4, 5): mounted once (by WorkspaceNav) and
// opened from anywhere through modalRequests.ts. Both are WorkspaceForm.tsx (the visor's adds
// Color). They write through the data worker, which saves on the server and updates Dexie, so
// every tab's tree follows.
import { useEffect, useState } from 'react';
import { dataWorker } from '../../data/worker';
import { useFolderTree, useVisor } from '../../data/workspace';
import { findFolder } from '../../lib/folderTree';
import { DEFAULT_VISOR_COLOR } from '../../protocol/workspace';
import { useCurrentUser } from '../auth/useCurrentUser';
import { ColorField } from '../../ui/ColorField';
import { onWorkspaceModalRequest, type WorkspaceModalRequest } from './modalRequests';
import { useWorkspaceForm, WorkspaceForm } from './WorkspaceForm';

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
  return request.kind === 'folder' ? (
    <FolderModal key={serial} request={request} onClose={close} />
  ) : (
    <VisorModal key={serial} request={request} onClose={close} />
  );
}

function FolderModal({ request, onClose }: { request: Extract<WorkspaceModalRequest, { kind: 'folder' }>; onClose: () => void }) {
  const user = useCurrentUser();
  const tree = useFolderTree(user._id);
  const editing = request.mode === 'edit' ? findFolder(tree?.nodes ?? [], request.folderId) : null;
  const form = useWorkspaceForm({
    creating: request.mode === 'create',
    empty: { title: '', emoji: '' },
    loaded: editing && { title: editing.name, emoji: editing.emoji },
    save: ({ title, emoji }) =>
      dataWorker().changeTree(
        request.mode === 'create'
          ? { kind: 'addFolder', parentId: request.parentId, name: title, emoji }
          : { kind: 'editFolder', folderId: request.folderId, name: title, emoji },
      ),
    onClose,
  });
  return <WorkspaceForm title="Carpeta" titleId="folder-title" titlePlaceholder="Título de la carpeta" form={form} onClose={onClose} />;
}

function VisorModal({ request, onClose }: { request: Extract<WorkspaceModalRequest, { kind: 'visor' }>; onClose: () => void }) {
  const user = useCurrentUser();
  const visor = useVisor(user._id, request.mode === 'edit' ? request.visorId : null);
  const form = useWorkspaceForm({
    creating: request.mode === 'create',
    empty: { title: '', emoji: '', color: DEFAULT_VISOR_COLOR },
    loaded: visor && { title: visor.title, emoji: visor.emoji, color: visor.color || DEFAULT_VISOR_COLOR },
    save: (fields) => (request.mode === 'create' ? dataWorker().createVisor(fields, request.parentId) : dataWorker().updateVisor(request.visorId, fields)),
    onClose,
  });
  return (
    <WorkspaceForm title="Visor" titleId="visor-title" titlePlaceholder="Título del visor" form={form} onClose={onClose}>
      <div className="dialog__field">
        <label className="dialog__label" htmlFor="visor-color">
          Color
        </label>
        <ColorField id="visor-color" label="Color" value={form.fields.color} onChange={(color) => form.set('color', color)} />
      </div>
    </WorkspaceForm>
  );
}
