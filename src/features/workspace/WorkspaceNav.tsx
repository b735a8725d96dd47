// The sidebar's workspace part (spec section 2): the Favoritos heading (only when a folder or
// visor is a favourite) with favourite visores and the favourites folder tree, then Espacio de
// trabajo with its plus menu and the general tree. Rows show a hover menu per the spec; every
// change goes through the data worker and shows in every tab from Dexie.
//
// Drag and drop (@dnd-kit, one group for both trees, useTreeDrag.ts): in the general tree a
// row moves up and down and, dragged sideways, into and out of folders; a row dropped on
// Favoritos becomes a favourite, a favourite dropped on the general tree stops being one.
//
// The parts: FavouritesTree.tsx and GeneralTree.tsx (the two trees), TreeRows.tsx (their rows),
// RowMenus.tsx (the '+' and actions menus), WorkspaceModals.tsx (the Carpeta and Visor modals).
import { useState } from 'react';
import { DndContext, DragOverlay } from '@dnd-kit/core';
import { dataWorker } from '../../data/worker';
import { favouriteFolders } from '../../lib/folderTree';
import { nodesByRowId } from '../../lib/treeDnd';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FavouritesDropHint, FavouritesTree } from './FavouritesTree';
import { GeneralTree } from './GeneralTree';
import { openKey, type PendingDelete, type RowActions } from './rowActions';
import { DraggedRow } from './TreeRows';
import { useTreeDrag } from './useTreeDrag';
import { useWorkspace } from './useWorkspaceData';
import { runShowingErrors } from './workerCalls';
import { WorkspaceModals } from './WorkspaceModals';
import './workspace.css';

export interface WorkspaceNavProps {
  /** Called after a link click (the layout closes the sidebar on small screens). */
  onNavigate: () => void;
}

export function WorkspaceNav({ onNavigate }: WorkspaceNavProps) {
  const { tree, visores } = useWorkspace();
  /** Open folders, per tree: see openKey. */
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  const nodes = tree?.nodes ?? [];
  const byRowId = nodesByRowId(nodes);
  const favVisores = (visores ?? []).filter((visor) => visor.fav);
  const favFolders = favouriteFolders(nodes);
  const hasFavourites = favVisores.length > 0 || favFolders.length > 0;

  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const isOpen = (key: string) => open.has(key);
  const drag = useTreeDrag({ nodes, byRowId, isOpen, openFolder: (folderId) => setOpen((current) => new Set(current).add(openKey('general', folderId))) });
  const actions: RowActions = { onNavigate, isOpen, toggle, askDelete: setPendingDelete };

  const confirmDelete = () => {
    const target = pendingDelete;
    setPendingDelete(null);
    if (!target) return;
    runShowingErrors(() =>
      target.kind === 'folder' ? dataWorker().changeTree({ kind: 'deleteFolder', folderId: target.id }) : dataWorker().deleteVisor(target.id),
    );
  };

  return (
    <div className="workspace-nav">
      <DndContext {...drag.contextProps}>
        {hasFavourites && <FavouritesTree visores={favVisores} folders={favFolders} actions={actions} active={drag.draggingGeneral} />}
        <GeneralTree rows={drag.rows} byRowId={byRowId} depthOf={drag.depthOf} actions={actions} empty={tree != null && nodes.length === 0} />
        {!hasFavourites && drag.draggingGeneral && <FavouritesDropHint />}
        <DragOverlay dropAnimation={{ duration: 100, easing: 'ease' }}>{drag.draggedNode ? <DraggedRow node={drag.draggedNode} /> : null}</DragOverlay>
      </DndContext>
      <ConfirmDialog open={pendingDelete != null} onConfirm={confirmDelete} onCancel={() => setPendingDelete(null)} />
      <WorkspaceModals />
    </div>
  );
}
