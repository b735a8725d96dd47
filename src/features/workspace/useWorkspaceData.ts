import { useEffect } from 'react';
import { dataWorker } from '../../data/worker';
import { useFolderTree, useVisores } from '../../data/workspace';
import { useCurrentUser } from '../auth/useCurrentUser';

/** Asks the data worker to read the workspace once per mount; the Dexie hooks show it as it lands. */
export function useRefreshWorkspace(): void {
  useEffect(() => {
    dataWorker()
      .refreshWorkspace()
      .catch((error: unknown) => console.error('Folder loading failed', error)); // spec 8: only logged
  }, []);
}

/** The signed-in user's tree and visores from the cache (undefined while loading). */
export function useWorkspace() {
  const user = useCurrentUser();
  useRefreshWorkspace();
  return { tree: useFolderTree(user._id), visores: useVisores(user._id) };
}
