// The sidebar's workspace part (issue 6): the Favoritos heading with favourite visores and
// the favourites tree, then Espacio de trabajo with its plus menu and the general tree.
// Placeholder body: the trees, menus, drag and drop and modals replace it.
export interface WorkspaceNavProps {
  /** Called after a link click (the layout closes the sidebar on small screens). */
  onNavigate: () => void;
}

export function WorkspaceNav(_props: WorkspaceNavProps) {
  return null;
}
