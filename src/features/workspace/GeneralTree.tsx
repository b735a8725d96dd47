// Espacio de trabajo (spec section 2): the heading with its '+' menu, and the general tree as
// sortable rows. The section is a drop area: a favourite dropped on it stops being one, a row
// dropped on a row moves (lib/treeDnd.ts).
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { ReactNode } from 'react';
import { GENERAL_ZONE, type FlatRow } from '../../lib/treeDnd';
import type { TreeNode } from '../../protocol/workspace';
import type { RowActions } from './rowActions';
import { CreateMenu } from './RowMenus';
import { SortableRow } from './TreeRows';

function GeneralZone({ children }: { children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: GENERAL_ZONE });
  return (
    <section ref={setNodeRef} aria-labelledby="nav-espacio" className={`workspace-nav__zone${isOver ? ' workspace-nav__zone--over' : ''}`}>
      {children}
    </section>
  );
}

interface GeneralTreeProps {
  /** The visible rows (while a folder is dragged, without what it holds). */
  rows: readonly FlatRow[];
  byRowId: ReadonlyMap<string, TreeNode>;
  /** The depth a row shows at: the dragged row's is where it would land. */
  depthOf: (row: FlatRow) => number;
  actions: RowActions;
  /** The tree is loaded and has no nodes. */
  empty: boolean;
}

export function GeneralTree({ rows, byRowId, depthOf, actions, empty }: GeneralTreeProps) {
  return (
    <GeneralZone>
      <div className="workspace-nav__heading-row">
        <h3 className="workspace-nav__heading" id="nav-espacio">
          Espacio de trabajo
        </h3>
        <CreateMenu label="Crear en Espacio de trabajo" parentId={null} />
      </div>
      <SortableContext items={rows.map((row) => row.id)} strategy={verticalListSortingStrategy}>
        <ul className="tree" aria-label="Espacio de trabajo">
          {rows.map((row) => {
            const node = byRowId.get(row.id);
            if (!node) return null;
            return <SortableRow key={row.id} row={row} node={node} depth={depthOf(row)} actions={actions} />;
          })}
        </ul>
      </SortableContext>
      {empty && <p className="workspace-nav__empty">Sin carpetas ni visores todavía.</p>}
    </GeneralZone>
  );
}
