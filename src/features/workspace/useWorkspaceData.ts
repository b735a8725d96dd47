import { useFolderTree, useVisores } from '../../data/workspace';
import { useCurrentUser } from '../auth/useCurrentUser';

/**
 * The signed-in user's tree and visores from the cache (undefined while loading). Mounting
 * reads nothing from the server: the data worker keeps the cache current (it reads the
 * workspace at sign-in, stores every write's answer, and checks the version when a tab comes
 * back after a while; workers/syncRefresh.ts).
 */
export function useWorkspace() {
  const user = useCurrentUser();
  return { tree: useFolderTree(user._id), visores: useVisores(user._id) };
}
