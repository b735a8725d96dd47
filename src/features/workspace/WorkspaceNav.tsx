// The sidebar's workspace part (spec section 2): the Favoritos heading (only when a folder or
// visor is a favourite) with favourite visores and the favourites folder tree, then Espacio de
// trabajo with its plus menu and the general tree. Rows show a hover menu per the spec; every
// change goes through the data worker and shows in every tab from Dexie.
import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { dataWorker } from '../../data/worker';
import { favouriteFolders } from '../../lib/folderTree';
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

function run(action: () => Promise<unknown>): void {
  action().catch((error: unknown) => showToast(errorMessage(error), 'error'));
}

export function WorkspaceNav({ onNavigate }: WorkspaceNavProps) {
  const { tree, visores } = useWorkspace();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  const nodes = tree?.nodes ?? [];
  const favVisores = (visores ?? []).filter((visor) => visor.fav);
  const favFolders = favouriteFolders(nodes);
  const hasFavourites = favVisores.length > 0 || favFolders.length > 0;

  const toggle = (folderId: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(folderId)) next.delete(folderId);
      else next.add(folderId);
      return next;
    });

  const actions: RowActions = {
    onNavigate,
    isOpen: (folderId) => open.has(folderId),
    toggle,
    askDelete: setPendingDelete,
  };

  const confirmDelete = () => {
    const target = pendingDelete;
    setPendingDelete(null);
    if (!target) return;
    run(() => (target.kind === 'folder' ? dataWorker().changeTree({ kind: 'deleteFolder', folderId: target.id }) : dataWorker().deleteVisor(target.id)));
  };

  return (
    <div className="workspace-nav">
      {hasFavourites && (
        <section aria-labelledby="nav-favoritos">
          <h3 className="workspace-nav__heading" id="nav-favoritos">
            Favoritos
          </h3>
          <ul className="tree" aria-label="Visores favoritos">
            {favVisores.map((visor) => (
              <li key={visor.visor_id} className="tree__item">
                <div className="tree__row">
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
                </div>
              </li>
            ))}
          </ul>
          {favFolders.length > 0 && (
            <ul className="tree" aria-label="Carpetas favoritas">
              {favFolders.map((folder) => (
                <FolderRow key={folder.folder_id} folder={folder} depth={0} actions={actions} place="fav" />
              ))}
            </ul>
          )}
        </section>
      )}
      <section aria-labelledby="nav-espacio">
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
        <ul className="tree" aria-label="Espacio de trabajo">
          {nodes.map((node) => (
            <NodeRow key={nodeKey(node)} node={node} depth={0} actions={actions} place="general" />
          ))}
        </ul>
        {tree && nodes.length === 0 && <p className="workspace-nav__empty">Sin carpetas ni visores todavía.</p>}
      </section>
      <ConfirmDialog open={pendingDelete != null} onConfirm={confirmDelete} onCancel={() => setPendingDelete(null)} />
      <WorkspaceModals />
    </div>
  );
}

interface RowActions {
  onNavigate: () => void;
  isOpen: (folderId: string) => boolean;
  toggle: (folderId: string) => void;
  askDelete: (target: PendingDelete) => void;
}

type Place = 'general' | 'fav';

function nodeKey(node: TreeNode): string {
  return isFolderNode(node) ? `f:${node.folder_id}` : `v:${node.visor_id}`;
}

function NodeRow({ node, depth, actions, place }: { node: TreeNode; depth: number; actions: RowActions; place: Place }) {
  return isFolderNode(node) ? <FolderRow folder={node} depth={depth} actions={actions} place={place} /> : <VisorRow visor={node} depth={depth} actions={actions} />;
}

function FolderRow({ folder, depth, actions, place }: { folder: FolderNode; depth: number; actions: RowActions; place: Place }) {
  const key = `${place}:${folder.folder_id}`;
  const expanded = actions.isOpen(key);
  const items: MenuItem[] = [
    {
      label: folder.fav ? 'Remover Favorito' : 'Agregar a Favoritos',
      onSelect: () => run(() => dataWorker().changeTree({ kind: 'setFolderFavourite', folderId: folder.folder_id, fav: !folder.fav })),
    },
    { label: 'Eliminar', onSelect: () => actions.askDelete({ kind: 'folder', id: folder.folder_id }) },
    { label: 'Editar', onSelect: () => openWorkspaceModal({ kind: 'folder', mode: 'edit', folderId: folder.folder_id }) },
  ];
  return (
    <li className="tree__item" data-folder-id={folder.folder_id}>
      <div className="tree__row" style={{ paddingLeft: `${depth * 0.9}rem` }}>
        <button type="button" className="tree__link tree__folder" aria-expanded={expanded} onClick={() => actions.toggle(key)}>
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
      </div>
      {expanded && folder.sub.length > 0 && (
        <ul className="tree" role="group">
          {folder.sub.map((node) => (
            <NodeRow key={nodeKey(node)} node={node} depth={depth + 1} actions={actions} place={place} />
          ))}
        </ul>
      )}
    </li>
  );
}

function VisorRow({ visor, depth, actions }: { visor: VisorNode; depth: number; actions: RowActions }) {
  return (
    <li className="tree__item" data-visor-id={visor.visor_id}>
      <div className="tree__row" style={{ paddingLeft: `${depth * 0.9}rem` }}>
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
      </div>
    </li>
  );
}
