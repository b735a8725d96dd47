// Opening the workspace modals from anywhere in the backend layout (issue 6): the sidebar's
// menus, the home page's call to create a first visor, the search page. The modal host is
// mounted once by WorkspaceNav; this module carries the requests to it.
export type WorkspaceModalRequest =
  | { kind: 'folder'; mode: 'create'; /** null: the root of the tree. */ parentId: string | null }
  | { kind: 'visor'; mode: 'create'; /** null: the root of the tree. */ parentId: string | null }
  | { kind: 'folder'; mode: 'edit'; folderId: string }
  | { kind: 'visor'; mode: 'edit'; visorId: string };

type Listener = (request: WorkspaceModalRequest) => void;
const listeners = new Set<Listener>();

export function openWorkspaceModal(request: WorkspaceModalRequest): void {
  for (const listener of listeners) listener(request);
}

/** For the modal host: returns the unsubscribe function. */
export function onWorkspaceModalRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
