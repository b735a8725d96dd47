// Favoritos (spec section 2), shown only when a folder or visor is a favourite: favourite
// visores link to public mode, favourite folders carry their whole subtree. The section is a
// drop area: a row of the general tree dropped on it becomes a favourite (lib/treeDnd.ts).
import { useDroppable } from '@dnd-kit/core';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { FAV_ZONE, favouriteRowId, folderRowId, visorRowId } from '../../lib/treeDnd';
import type { FolderNode, Visor } from '../../protocol/workspace';
import { paths } from '../../lib/paths';
import { openKey, type RowActions } from './rowActions';
import { VisorMenu } from './RowMenus';
import { FavRow, FolderContent, NestedNodes, RowLabel } from './TreeRows';

/** The drop area; `active` (a general row is being dragged) shows it as a target. */
function FavouritesZone({ active, children }: { active: boolean; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: FAV_ZONE });
  return (
    <section
      ref={setNodeRef}
      aria-label="Favoritos"
      className={`workspace-nav__zone${active ? ' workspace-nav__zone--target' : ''}${isOver ? ' workspace-nav__zone--over' : ''}`}
    >
      {children}
    </section>
  );
}

interface FavouritesTreeProps {
  visores: readonly Visor[];
  folders: readonly FolderNode[];
  actions: RowActions;
  /** A row of the general tree is being dragged. */
  active: boolean;
}

export function FavouritesTree({ visores, folders, actions, active }: FavouritesTreeProps) {
  return (
    <FavouritesZone active={active}>
      <h3 className="workspace-nav__heading" id="nav-favoritos">
        Favoritos
      </h3>
      {visores.length > 0 && (
        <ul className="tree" aria-label="Visores favoritos">
          {visores.map((visor) => (
            <FavRow key={visor.visor_id} id={favouriteRowId(visorRowId(visor.visor_id))} label={visor.title}>
              <NavLink to={paths['visor-modo-publico'](visor.visor_id)} className="tree__link" onClick={actions.onNavigate}>
                <RowLabel emoji={visor.emoji} icon="chart" name={visor.title} />
              </NavLink>
              <VisorMenu visorId={visor.visor_id} name={visor.title} inFavourites askDelete={actions.askDelete} />
            </FavRow>
          ))}
        </ul>
      )}
      {folders.length > 0 && (
        <ul className="tree" aria-label="Carpetas favoritas">
          {folders.map((folder) => (
            <FavFolder key={folder.folder_id} folder={folder} actions={actions} />
          ))}
        </ul>
      )}
    </FavouritesZone>
  );
}

/**
 * With no favourites yet, the drop area appears below the general tree while a row is
 * dragged, so nothing above the pointer moves.
 */
export function FavouritesDropHint() {
  return (
    <FavouritesZone active>
      <p className="workspace-nav__drop-hint">Soltá aquí para agregar a Favoritos</p>
    </FavouritesZone>
  );
}

/** A favourite folder with its whole subtree (visores inside link to edit mode). */
function FavFolder({ folder, actions }: { folder: FolderNode; actions: RowActions }) {
  const key = openKey('fav', folder.folder_id);
  return (
    <FavRow
      id={favouriteRowId(folderRowId(folder.folder_id))}
      label={folder.name}
      below={actions.isOpen(key) && folder.sub.length > 0 && <NestedNodes nodes={folder.sub} actions={actions} depth={1} />}
    >
      <FolderContent folder={folder} actions={actions} openKey={key} />
    </FavRow>
  );
}
