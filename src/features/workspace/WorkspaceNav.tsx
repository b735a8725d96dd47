// The sidebar's workspace part (spec section 2): the Favoritos heading (only when a folder or
// visor is a favourite) with favourite visores and the favourites folder tree, then Espacio de
// trabajo with its plus menu and the general tree. Rows show a hover menu per the spec; every
// change goes through the data worker and shows in every tab from Dexie.
//
// Drag and drop (@dnd-kit, one group for both trees): in the general tree a row moves up and
// down and, dragged sideways, into and out of folders (lib/treeDnd.ts projects where it
// lands); a row dropped on Favoritos becomes a favourite, a favourite dropped on the general
// tree stops being one. Pointer or keyboard (Space to lift, arrows, Space to drop).
import { useState, type ReactNode } from 'react';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { NavLink } from 'react-router-dom';
import { dataWorker } from '../../data/worker';
import { favouriteFolders } from '../../lib/folderTree';
import { flattenTree, projectDrop, withoutDescendants, type FlatRow } from '../../lib/treeDnd';
import { isFolderNode, type FolderNode, type TreeNode, type VisorNode } from '../../protocol/workspace';
import { paths } from '../../routes/paths';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Emoji } from '../../ui/Emoji';
import { Icon } from '../../ui/Icon';
import { Menu, type MenuItem } from '../../ui/Menu';
import { showToast } from '../../ui/toast';
import { openWorkspaceModal } from './modalRequests';
import { useWorkspace } from './useWorkspaceData';
import { errorMessage, WorkspaceModals } from './WorkspaceModals';
import './workspace.css';

export interface WorkspaceNavProps {
  /** Called after a link click (the layout closes the sidebar on small screens). */
  onNavigate: () => void;
}

type PendingDelete = { kind: 'folder'; id: string } | { kind: 'visor'; id: string };

/** Pixels of one level of depth, for rows and for dragging sideways. */
const INDENT = 16;
const ANIMATION = { duration: 100, easing: 'ease' };
const FAV_ZONE = 'zone:favoritos';
const GENERAL_ZONE = 'zone:general';

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

function run(action: () => Promise<unknown>): void {
  action().catch((error: unknown) => showToast(errorMessage(error), 'error'));
}

/** Every node of the tree by its row id ('f:…' / 'v:…'). */
function indexNodes(nodes: readonly TreeNode[], into = new Map<string, TreeNode>()): Map<string, TreeNode> {
  for (const node of nodes) {
    if (isFolderNode(node)) {
      into.set(`f:${node.folder_id}`, node);
      indexNodes(node.sub, into);
    } else into.set(`v:${node.visor_id}`, node);
  }
  return into;
}

export function WorkspaceNav({ onNavigate }: WorkspaceNavProps) {
  const { tree, visores } = useWorkspace();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  const [dragging, setDragging] = useState<{ id: string; overId: string | null; offsetX: number } | null>(null);
  const nodes = tree?.nodes ?? [];
  const byId = indexNodes(nodes);
  const favVisores = (visores ?? []).filter((visor) => visor.fav);
  const favFolders = favouriteFolders(nodes);
  const hasFavourites = favVisores.length > 0 || favFolders.length > 0;

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const allRows = flattenTree(nodes, (folderId) => open.has(`general:${folderId}`));
  const activeGeneral = dragging && !dragging.id.startsWith('fav:') ? dragging.id : null;
  const rows = activeGeneral ? withoutDescendants(allRows, activeGeneral) : allRows;
  const overRow = dragging?.overId && rows.some((row) => row.id === dragging.overId) ? dragging.overId : null;
  const projection = activeGeneral && overRow ? projectDrop(rows, activeGeneral, overRow, dragging?.offsetX ?? 0, INDENT) : null;

  const actions: RowActions = {
    onNavigate,
    isOpen: (key) => open.has(key),
    toggle,
    askDelete: setPendingDelete,
  };

  const setFavourite = (id: string, fav: boolean) => {
    const node = byId.get(id);
    if (!node) return;
    if (isFolderNode(node)) {
      if ((node.fav === true) !== fav) run(() => dataWorker().changeTree({ kind: 'setFolderFavourite', folderId: node.folder_id, fav }));
    } else if ((node.fav === true) !== fav) run(() => dataWorker().toggleVisorFavourite(node.visor_id));
  };

  const onDragStart = (event: DragStartEvent) => setDragging({ id: String(event.active.id), overId: null, offsetX: 0 });
  const onDragMove = (event: DragMoveEvent) =>
    setDragging((current) => (current ? { ...current, overId: event.over ? String(event.over.id) : null, offsetX: event.delta.x } : current));
  const onDragEnd = (event: DragEndEvent) => {
    const activeId = String(event.active.id);
    const overId = event.over ? String(event.over.id) : null;
    const finalProjection = !activeId.startsWith('fav:') && overId && rows.some((row) => row.id === overId) ? projectDrop(rows, activeId, overId, event.delta.x, INDENT) : null;
    setDragging(null);
    if (!overId) return;
    if (activeId.startsWith('fav:')) {
      // A favourite dropped on the general tree stops being one.
      if (overId === GENERAL_ZONE || rows.some((row) => row.id === overId)) setFavourite(activeId.slice(4), false);
      return;
    }
    if (overId === FAV_ZONE || overId.startsWith('fav:')) {
      setFavourite(activeId, true);
      return;
    }
    const active = rows.find((row) => row.id === activeId);
    if (!active || !finalProjection) return;
    const siblings = rows.filter((row) => row.parentId === active.parentId && row.depth === active.depth);
    const unchanged = finalProjection.parentId === active.parentId && finalProjection.index === siblings.findIndex((row) => row.id === activeId);
    if (unchanged) return;
    if (finalProjection.parentId) setOpen((current) => new Set(current).add(`general:${finalProjection.parentId}`));
    run(() => dataWorker().changeTree({ kind: 'move', node: active.ref, parentId: finalProjection.parentId, index: finalProjection.index }));
  };

  const confirmDelete = () => {
    const target = pendingDelete;
    setPendingDelete(null);
    if (!target) return;
    run(() => (target.kind === 'folder' ? dataWorker().changeTree({ kind: 'deleteFolder', folderId: target.id }) : dataWorker().deleteVisor(target.id)));
  };

  const draggedNode = dragging ? byId.get(dragging.id.replace(/^fav:/, '')) : undefined;

  return (
    <div className="workspace-nav">
      <DndContext
        sensors={sensors}
        collisionDetection={collision}
        onDragStart={onDragStart}
        onDragMove={onDragMove}
        onDragOver={(event) => setDragging((current) => (current ? { ...current, overId: event.over ? String(event.over.id) : null } : current))}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragging(null)}
        accessibility={{
          screenReaderInstructions: { draggable: 'Para mover: Espacio para levantar, flechas para mover, Espacio para soltar, Escape para cancelar.' },
        }}
      >
        {hasFavourites && (
          <FavouritesZone active={dragging != null && !dragging.id.startsWith('fav:')}>
            <h3 className="workspace-nav__heading" id="nav-favoritos">
              Favoritos
            </h3>
            {favVisores.length > 0 && (
              <ul className="tree" aria-label="Visores favoritos">
                {favVisores.map((visor) => (
                  <FavRow key={visor.visor_id} id={`fav:v:${visor.visor_id}`} label={visor.title}>
                    <NavLink to={paths['visor-modo-publico'](visor.visor_id)} className="tree__link" onClick={onNavigate}>
                      <span className="tree__emoji">{visor.emoji ? <Emoji emoji={visor.emoji} /> : <Icon name="chart" />}</span>
                      <span className="tree__name">{visor.title}</span>
                    </NavLink>
                    <Menu
                      label={`Acciones de ${visor.title}`}
                      items={[
                        { label: 'Editar', onSelect: () => openWorkspaceModal({ kind: 'visor', mode: 'edit', visorId: visor.visor_id }) },
                        { label: 'Eliminar', onSelect: () => setPendingDelete({ kind: 'visor', id: visor.visor_id }) },
                      ]}
                    />
                  </FavRow>
                ))}
              </ul>
            )}
            {favFolders.length > 0 && (
              <ul className="tree" aria-label="Carpetas favoritas">
                {favFolders.map((folder) => (
                  <FavFolder key={folder.folder_id} folder={folder} actions={actions} />
                ))}
              </ul>
            )}
          </FavouritesZone>
        )}
        <GeneralZone>
          <div className="workspace-nav__heading-row">
            <h3 className="workspace-nav__heading" id="nav-espacio">
              Espacio de trabajo
            </h3>
            <Menu
              label="Crear en Espacio de trabajo"
              icon="plus"
              items={[
                { label: 'Carpeta', onSelect: () => openWorkspaceModal({ kind: 'folder', mode: 'create', parentId: null }) },
                { label: 'Visor', onSelect: () => openWorkspaceModal({ kind: 'visor', mode: 'create', parentId: null }) },
              ]}
            />
          </div>
          <SortableContext items={rows.map((row) => row.id)} strategy={verticalListSortingStrategy}>
            <ul className="tree" aria-label="Espacio de trabajo">
              {rows.map((row) => {
                const node = byId.get(row.id);
                if (!node) return null;
                const depth = row.id === activeGeneral && projection ? projection.depth : row.depth;
                return <SortableRow key={row.id} row={row} node={node} depth={depth} actions={actions} />;
              })}
            </ul>
          </SortableContext>
          {tree && nodes.length === 0 && <p className="workspace-nav__empty">Sin carpetas ni visores todavía.</p>}
        </GeneralZone>
        {!hasFavourites && activeGeneral && (
          // With no favourites yet the drop zone appears below the tree, so nothing above the
          // pointer moves while dragging.
          <FavouritesZone active>
            <p className="workspace-nav__drop-hint">Soltá aquí para agregar a Favoritos</p>
          </FavouritesZone>
        )}
        <DragOverlay dropAnimation={{ duration: 100, easing: 'ease' }}>
          {draggedNode ? (
            <div className="tree__row tree__row--overlay">
              <span className="tree__link">
                <span className="tree__emoji">{draggedNode.emoji ? <Emoji emoji={draggedNode.emoji} /> : <Icon name={isFolderNode(draggedNode) ? 'folder' : 'chart'} />}</span>
                <span className="tree__name">{draggedNode.name}</span>
              </span>
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
      <ConfirmDialog open={pendingDelete != null} onConfirm={confirmDelete} onCancel={() => setPendingDelete(null)} />
      <WorkspaceModals />
    </div>
  );
}

function FavouritesZone({ active, children }: { active: boolean; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: FAV_ZONE });
  return (
    <section ref={setNodeRef} aria-label="Favoritos" className={`workspace-nav__zone${active ? ' workspace-nav__zone--target' : ''}${isOver ? ' workspace-nav__zone--over' : ''}`}>
      {children}
    </section>
  );
}

function GeneralZone({ children }: { children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: GENERAL_ZONE });
  return (
    <section ref={setNodeRef} aria-labelledby="nav-espacio" className={`workspace-nav__zone${isOver ? ' workspace-nav__zone--over' : ''}`}>
      {children}
    </section>
  );
}

interface RowActions {
  onNavigate: () => void;
  /** Open state per tree and folder: 'general:<id>' or 'fav:<id>'. */
  isOpen: (key: string) => boolean;
  toggle: (key: string) => void;
  askDelete: (target: PendingDelete) => void;
}

function DragHandle({ label, listeners, attributes }: { label: string; listeners: ReturnType<typeof useDraggable>['listeners']; attributes: ReturnType<typeof useDraggable>['attributes'] }) {
  return (
    <button type="button" className="tree__handle" {...attributes} {...listeners} aria-label={`Mover ${label}`} title={`Mover ${label}`}>
      <span aria-hidden="true">⠿</span>
    </button>
  );
}

function SortableRow({ row, node, depth, actions }: { row: FlatRow; node: TreeNode; depth: number; actions: RowActions }) {
  const { setNodeRef, transform, transition, isDragging, listeners, attributes } = useSortable({ id: row.id, transition: ANIMATION });
  const style = { transform: CSS.Translate.toString(transform), transition, paddingLeft: `${depth * INDENT}px` };
  const name = node.name;
  return (
    <li ref={setNodeRef} style={style} className={`tree__item${isDragging ? ' tree__item--dragging' : ''}`} data-depth={depth} {...(isFolderNode(node) ? { 'data-folder-id': node.folder_id } : { 'data-visor-id': node.visor_id })}>
      <div className="tree__row">
        <DragHandle label={name} listeners={listeners} attributes={attributes} />
        {isFolderNode(node) ? <FolderContent folder={node} actions={actions} openKey={`general:${node.folder_id}`} /> : <VisorContent visor={node} actions={actions} />}
      </div>
    </li>
  );
}

function FavRow({ id, label, children, below }: { id: string; label: string; children: ReactNode; below?: ReactNode }) {
  const { setNodeRef, listeners, attributes, isDragging } = useDraggable({ id });
  return (
    <li ref={setNodeRef} className={`tree__item${isDragging ? ' tree__item--dragging' : ''}`}>
      <div className="tree__row">
        <DragHandle label={label} listeners={listeners} attributes={attributes} />
        {children}
      </div>
      {below}
    </li>
  );
}

/** A favourite folder with its whole subtree (visores inside link to edit mode). */
function FavFolder({ folder, actions }: { folder: FolderNode; actions: RowActions }) {
  const key = `fav:${folder.folder_id}`;
  return (
    <FavRow id={`fav:f:${folder.folder_id}`} label={folder.name} below={actions.isOpen(key) && folder.sub.length > 0 && <NestedNodes nodes={folder.sub} actions={actions} depth={1} />}>
      <FolderContent folder={folder} actions={actions} openKey={key} />
    </FavRow>
  );
}

function NestedNodes({ nodes, actions, depth }: { nodes: TreeNode[]; actions: RowActions; depth: number }) {
  return (
    <ul className="tree tree--nested" role="group">
      {nodes.map((node) => (
        <li key={isFolderNode(node) ? `f:${node.folder_id}` : `v:${node.visor_id}`} className="tree__item" style={{ paddingLeft: `${INDENT}px` }}>
          <div className="tree__row">
            {isFolderNode(node) ? <FolderContent folder={node} actions={actions} openKey={`fav:${node.folder_id}`} /> : <VisorContent visor={node} actions={actions} />}
          </div>
          {isFolderNode(node) && actions.isOpen(`fav:${node.folder_id}`) && node.sub.length > 0 && <NestedNodes nodes={node.sub} actions={actions} depth={depth + 1} />}
        </li>
      ))}
    </ul>
  );
}

function FolderContent({ folder, actions, openKey }: { folder: FolderNode; actions: RowActions; openKey: string }) {
  const expanded = actions.isOpen(openKey);
  const items: MenuItem[] = [
    {
      label: folder.fav ? 'Remover Favorito' : 'Agregar a Favoritos',
      onSelect: () => run(() => dataWorker().changeTree({ kind: 'setFolderFavourite', folderId: folder.folder_id, fav: !folder.fav })),
    },
    { label: 'Eliminar', onSelect: () => actions.askDelete({ kind: 'folder', id: folder.folder_id }) },
    { label: 'Editar', onSelect: () => openWorkspaceModal({ kind: 'folder', mode: 'edit', folderId: folder.folder_id }) },
  ];
  return (
    <>
      <button type="button" className="tree__link tree__folder" aria-expanded={expanded} onClick={() => actions.toggle(openKey)}>
        <span className={`tree__caret${expanded ? ' tree__caret--open' : ''}`} aria-hidden="true">
          ▸
        </span>
        <span className="tree__emoji">{folder.emoji ? <Emoji emoji={folder.emoji} /> : <Icon name="folder" />}</span>
        <span className="tree__name">{folder.name}</span>
      </button>
      <Menu
        label={`Agregar en ${folder.name}`}
        icon="plus"
        items={[
          { label: 'Carpeta', onSelect: () => openWorkspaceModal({ kind: 'folder', mode: 'create', parentId: folder.folder_id }) },
          { label: 'Visor', onSelect: () => openWorkspaceModal({ kind: 'visor', mode: 'create', parentId: folder.folder_id }) },
        ]}
      />
      <Menu label={`Acciones de ${folder.name}`} items={items} />
    </>
  );
}

function VisorContent({ visor, actions }: { visor: VisorNode; actions: RowActions }) {
  return (
    <>
      <NavLink to={paths['visor-modo-edicion'](visor.visor_id)} className="tree__link" onClick={actions.onNavigate}>
        <span className="tree__color" style={{ background: visor.color }} aria-hidden="true" />
        <span className="tree__emoji">{visor.emoji ? <Emoji emoji={visor.emoji} /> : <Icon name="chart" />}</span>
        <span className="tree__name">{visor.name}</span>
      </NavLink>
      <Menu
        label={`Acciones de ${visor.name}`}
        items={[
          { label: visor.fav ? 'Remover Favorito' : 'Agregar a Favoritos', onSelect: () => run(() => dataWorker().toggleVisorFavourite(visor.visor_id)) },
          { label: 'Editar', onSelect: () => openWorkspaceModal({ kind: 'visor', mode: 'edit', visorId: visor.visor_id }) },
          { label: 'Eliminar', onSelect: () => actions.askDelete({ kind: 'visor', id: visor.visor_id }) },
        ]}
      />
    </>
  );
}
