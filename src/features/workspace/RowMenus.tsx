// The sidebar's menus (spec section 2): '+' creates a Carpeta or a Visor at the root or in a
// folder; each row's menu toggles its favourite, edits it (the modals of WorkspaceModals.tsx)
// or asks before deleting it.
import { dataWorker } from '../../data/worker';
import type { FolderNode } from '../../protocol/workspace';
import { Menu, type MenuItem } from '../../ui/Menu';
import { openWorkspaceModal } from './modalRequests';
import type { PendingDelete } from './rowActions';
import { runShowingErrors } from './workerCalls';

type AskDelete = (target: PendingDelete) => void;

const favouriteLabel = (fav: boolean | undefined) => (fav ? 'Remover Favorito' : 'Agregar a Favoritos');

/** The '+' menu: a new folder or visor in the folder `parentId` (null: the root). */
export function CreateMenu({ label, parentId }: { label: string; parentId: string | null }) {
  return (
    <Menu
      label={label}
      icon="plus"
      items={[
        { label: 'Carpeta', onSelect: () => openWorkspaceModal({ kind: 'folder', mode: 'create', parentId }) },
        { label: 'Visor', onSelect: () => openWorkspaceModal({ kind: 'visor', mode: 'create', parentId }) },
      ]}
    />
  );
}

export function FolderMenu({ folder, askDelete }: { folder: FolderNode; askDelete: AskDelete }) {
  const items: MenuItem[] = [
    {
      label: favouriteLabel(folder.fav),
      onSelect: () => runShowingErrors(() => dataWorker().changeTree({ kind: 'setFolderFavourite', folderId: folder.folder_id, fav: !folder.fav })),
    },
    { label: 'Eliminar', onSelect: () => askDelete({ kind: 'folder', id: folder.folder_id }) },
    { label: 'Editar', onSelect: () => openWorkspaceModal({ kind: 'folder', mode: 'edit', folderId: folder.folder_id }) },
  ];
  return <Menu label={`Acciones de ${folder.name}`} items={items} />;
}

interface VisorMenuProps {
  visorId: string;
  name: string;
  fav?: boolean;
  /** In Favoritos the menu has only Editar and Eliminar (a drag out of Favoritos removes the favourite). */
  inFavourites?: boolean;
  askDelete: AskDelete;
}

export function VisorMenu({ visorId, name, fav, inFavourites = false, askDelete }: VisorMenuProps) {
  const items: MenuItem[] = [
    { label: 'Editar', onSelect: () => openWorkspaceModal({ kind: 'visor', mode: 'edit', visorId }) },
    { label: 'Eliminar', onSelect: () => askDelete({ kind: 'visor', id: visorId }) },
  ];
  if (!inFavourites) items.unshift({ label: favouriteLabel(fav), onSelect: () => runShowingErrors(() => dataWorker().toggleVisorFavourite(visorId)) });
  return <Menu label={`Acciones de ${name}`} items={items} />;
}
