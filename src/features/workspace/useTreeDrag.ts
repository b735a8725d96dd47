// Dragging in the sidebar (@dnd-kit, one DndContext for both trees): which row is dragged and
// over what, the general tree's rows meanwhile (a dragged folder's rows travel with it), the
// depth the row would land at, and running what the drop asks for. Where a row may land and
// what a drop does are decided in lib/treeDnd.ts. Pointer or keyboard (Space to lift, arrows,
// Space to drop).
import { useState } from 'react';
import {
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  pointerWithin,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DndContextProps,
  type DragEndEvent,
  type DragMoveEvent,
  type DragOverEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { dataWorker } from '../../data/worker';
import {
  dropAction,
  FAV_ZONE,
  flattenTree,
  GENERAL_ZONE,
  generalRowId,
  isFavouriteRow,
  projectDrop,
  withoutDescendants,
  type FlatRow,
} from '../../lib/treeDnd';
import { isFolderNode, type TreeNode } from '../../protocol/workspace';
import { openKey } from './rowActions';
import { INDENT } from './TreeRows';
import { runShowingErrors } from './workerCalls';

/**
 * The pointer over Favoritos means Favoritos; otherwise the closest row of the general tree,
 * or the general tree itself when it has no rows.
 */
const collision: CollisionDetection = (args) => {
  const within = pointerWithin(args).map((hit) => String(hit.id));
  if (within.includes(FAV_ZONE)) return [{ id: FAV_ZONE }];
  const hits = closestCenter({ ...args, droppableContainers: args.droppableContainers.filter((container) => !String(container.id).startsWith('zone:')) });
  if (hits.length > 0) return hits;
  return within.includes(GENERAL_ZONE) ? [{ id: GENERAL_ZONE }] : [];
};

const accessibility: DndContextProps['accessibility'] = {
  screenReaderInstructions: { draggable: 'Para mover: Espacio para levantar, flechas para mover, Espacio para soltar, Escape para cancelar.' },
};

interface Dragging {
  id: string;
  overId: string | null;
  offsetX: number;
}

interface TreeDragOptions {
  nodes: readonly TreeNode[];
  byRowId: ReadonlyMap<string, TreeNode>;
  isOpen: (key: string) => boolean;
  /** Opens a folder of the general tree (the one a row was just dropped into). */
  openFolder: (folderId: string) => void;
}

export function useTreeDrag({ nodes, byRowId, isOpen, openFolder }: TreeDragOptions) {
  const [dragging, setDragging] = useState<Dragging | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const allRows = flattenTree(nodes, (folderId) => isOpen(openKey('general', folderId)));
  const activeGeneral = dragging && !isFavouriteRow(dragging.id) ? dragging.id : null;
  const rows = activeGeneral ? withoutDescendants(allRows, activeGeneral) : allRows;
  const projection = activeGeneral && dragging?.overId ? projectDrop(rows, activeGeneral, dragging.overId, dragging.offsetX, INDENT) : null;

  const setFavourite = (id: string, fav: boolean) => {
    const node = byRowId.get(id);
    if (!node || (node.fav === true) === fav) return;
    if (isFolderNode(node)) runShowingErrors(() => dataWorker().changeTree({ kind: 'setFolderFavourite', folderId: node.folder_id, fav }));
    else runShowingErrors(() => dataWorker().toggleVisorFavourite(node.visor_id));
  };

  const overId = (event: DragMoveEvent | DragOverEvent | DragEndEvent) => (event.over ? String(event.over.id) : null);
  const onDragStart = (event: DragStartEvent) => setDragging({ id: String(event.active.id), overId: null, offsetX: 0 });
  const onDragMove = (event: DragMoveEvent) => setDragging((current) => (current ? { ...current, overId: overId(event), offsetX: event.delta.x } : current));
  const onDragOver = (event: DragOverEvent) => setDragging((current) => (current ? { ...current, overId: overId(event) } : current));
  const onDragEnd = (event: DragEndEvent) => {
    const action = dropAction(rows, String(event.active.id), overId(event), event.delta.x, INDENT);
    setDragging(null);
    if (!action) return;
    if (action.kind === 'favourite') return setFavourite(action.rowId, action.fav);
    if (action.parentId) openFolder(action.parentId);
    runShowingErrors(() => dataWorker().changeTree({ kind: 'move', node: action.node, parentId: action.parentId, index: action.index }));
  };

  const contextProps: DndContextProps = {
    sensors,
    collisionDetection: collision,
    onDragStart,
    onDragMove,
    onDragOver,
    onDragEnd,
    onDragCancel: () => setDragging(null),
    accessibility,
  };
  return {
    contextProps,
    rows,
    /** The depth a row shows at: the dragged row's is where it would land. */
    depthOf: (row: FlatRow) => (row.id === activeGeneral && projection ? projection.depth : row.depth),
    /** A row of the general tree is being dragged (Favoritos shows as a target). */
    draggingGeneral: activeGeneral != null,
    draggedNode: dragging ? byRowId.get(generalRowId(dragging.id)) : undefined,
  };
}
