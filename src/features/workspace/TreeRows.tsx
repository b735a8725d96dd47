// The rows of the sidebar's trees: a folder's content (open/close button, '+' and actions
// menus) and a visor's (link to edit mode, colour, actions menu); the general tree's sortable
// row, Favoritos' draggable row with the favourite folder's subtree below it, and the copy of
// a row that follows the pointer while it is dragged.
import { useDraggable } from '@dnd-kit/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { rowId, type FlatRow } from '../../lib/treeDnd';
import { isFolderNode, type FolderNode, type TreeNode, type VisorNode } from '../../protocol/workspace';
import { paths } from '../../lib/paths';
import { Emoji } from '../../ui/Emoji';
import { Icon, type IconName } from '../../ui/Icon';
import { openKey, type RowActions } from './rowActions';
import { CreateMenu, FolderMenu, VisorMenu } from './RowMenus';

/** Pixels of one level of depth, for rows and for dragging sideways. */
export const INDENT = 16;
const ANIMATION = { duration: 100, easing: 'ease' };

/** A row's emoji (an icon when it has none) and name. */
export function RowLabel({ emoji, icon, name }: { emoji: string; icon: IconName; name: string }) {
  return (
    <>
      <span className="tree__emoji">{emoji ? <Emoji emoji={emoji} /> : <Icon name={icon} />}</span>
      <span className="tree__name">{name}</span>
    </>
  );
}

function DragHandle({
  label,
  listeners,
  attributes,
}: {
  label: string;
  listeners: ReturnType<typeof useDraggable>['listeners'];
  attributes: ReturnType<typeof useDraggable>['attributes'];
}) {
  return (
    <button type="button" className="tree__handle" {...attributes} {...listeners} aria-label={`Mover ${label}`} title={`Mover ${label}`}>
      <span aria-hidden="true">⠿</span>
    </button>
  );
}

/** A row of the general tree, at `depth` (while it is dragged, the depth it would land at). */
export function SortableRow({ row, node, depth, actions }: { row: FlatRow; node: TreeNode; depth: number; actions: RowActions }) {
  const { setNodeRef, transform, transition, isDragging, listeners, attributes } = useSortable({ id: row.id, transition: ANIMATION });
  const style = { transform: CSS.Translate.toString(transform), transition, paddingLeft: `${depth * INDENT}px` };
  const name = node.name;
  return (
    <li
      ref={setNodeRef}
      style={style}
      className={`tree__item${isDragging ? ' tree__item--dragging' : ''}`}
      data-depth={depth}
      {...(isFolderNode(node) ? { 'data-folder-id': node.folder_id } : { 'data-visor-id': node.visor_id })}
    >
      <div className="tree__row">
        <DragHandle label={name} listeners={listeners} attributes={attributes} />
        {isFolderNode(node) ? (
          <FolderContent folder={node} actions={actions} openKey={openKey('general', node.folder_id)} />
        ) : (
          <VisorContent visor={node} actions={actions} />
        )}
      </div>
    </li>
  );
}

/** A row of Favoritos: dragged out of it, it stops being a favourite. */
export function FavRow({ id, label, children, below }: { id: string; label: string; children: ReactNode; below?: ReactNode }) {
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

/** The subtree of a favourite folder (not draggable; its folders open and close apart from the general tree's). */
export function NestedNodes({ nodes, actions, depth }: { nodes: TreeNode[]; actions: RowActions; depth: number }) {
  return (
    <ul className="tree tree--nested" role="group">
      {nodes.map((node) => (
        <li key={rowId(node)} className="tree__item" style={{ paddingLeft: `${INDENT}px` }}>
          <div className="tree__row">
            {isFolderNode(node) ? (
              <FolderContent folder={node} actions={actions} openKey={openKey('fav', node.folder_id)} />
            ) : (
              <VisorContent visor={node} actions={actions} />
            )}
          </div>
          {isFolderNode(node) && actions.isOpen(openKey('fav', node.folder_id)) && node.sub.length > 0 && (
            <NestedNodes nodes={node.sub} actions={actions} depth={depth + 1} />
          )}
        </li>
      ))}
    </ul>
  );
}

export function FolderContent({ folder, actions, openKey: key }: { folder: FolderNode; actions: RowActions; openKey: string }) {
  const expanded = actions.isOpen(key);
  return (
    <>
      <button type="button" className="tree__link tree__folder" aria-expanded={expanded} onClick={() => actions.toggle(key)}>
        <span className={`tree__caret${expanded ? ' tree__caret--open' : ''}`} aria-hidden="true">
          ▸
        </span>
        <RowLabel emoji={folder.emoji} icon="folder" name={folder.name} />
      </button>
      <CreateMenu label={`Agregar en ${folder.name}`} parentId={folder.folder_id} />
      <FolderMenu folder={folder} askDelete={actions.askDelete} />
    </>
  );
}

function VisorContent({ visor, actions }: { visor: VisorNode; actions: RowActions }) {
  return (
    <>
      <NavLink to={paths['visor-modo-edicion'](visor.visor_id)} className="tree__link" onClick={actions.onNavigate}>
        <span className="tree__color" style={{ background: visor.color }} aria-hidden="true" />
        <RowLabel emoji={visor.emoji} icon="chart" name={visor.name} />
      </NavLink>
      <VisorMenu visorId={visor.visor_id} name={visor.name} fav={visor.fav} askDelete={actions.askDelete} />
    </>
  );
}

/** What follows the pointer while a row is dragged. */
export function DraggedRow({ node }: { node: TreeNode }) {
  return (
    <div className="tree__row tree__row--overlay">
      <span className="tree__link">
        <RowLabel emoji={node.emoji} icon={isFolderNode(node) ? 'folder' : 'chart'} name={node.name} />
      </span>
    </div>
  );
}
