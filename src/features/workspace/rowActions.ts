// What the rows of the sidebar's trees get from WorkspaceNav: navigation, the open folders of
// each tree, and the delete confirmation.
export type PendingDelete = { kind: 'folder'; id: string } | { kind: 'visor'; id: string };

/** The two trees keep their open folders apart: a folder open in Favoritos may be closed in the general tree. */
export type TreeName = 'general' | 'fav';

/** The key of a folder's open state in one tree: 'general:<id>' or 'fav:<id>'. */
export const openKey = (tree: TreeName, folderId: string): string => `${tree}:${folderId}`;

export interface RowActions {
  /** Called after a link click (the layout closes the sidebar on small screens). */
  onNavigate: () => void;
  isOpen: (key: string) => boolean;
  toggle: (key: string) => void;
  askDelete: (target: PendingDelete) => void;
}
