// The search page's workspace half: the user's visores and folders whose title matches the
// text, each with the path of folders that holds it. Pure, so it is unit-tested.
import { isFolderNode, type FolderNode, type TreeNode, type Visor } from '../../protocol/workspace';

export interface FolderHit {
  folderId: string;
  name: string;
  emoji: string;
  /** Names of the folders above it, outermost first. */
  path: string[];
}
export interface VisorHit {
  visor: Pick<Visor, 'visor_id' | 'title' | 'emoji' | 'color'>;
  path: string[];
}

/** Case- and accent-insensitive. */
export function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/** The folder path of every visor in the tree, by visor_id. */
export function visorPaths(nodes: readonly TreeNode[]): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  const walk = (list: readonly TreeNode[], path: string[]) => {
    for (const node of list) {
      if (isFolderNode(node)) walk(node.sub, [...path, node.name]);
      else if (!paths.has(node.visor_id)) paths.set(node.visor_id, path);
    }
  };
  walk(nodes, []);
  return paths;
}

export function searchWorkspace(
  text: string,
  nodes: readonly TreeNode[],
  visores: readonly Pick<Visor, 'visor_id' | 'title' | 'emoji' | 'color'>[],
): { folders: FolderHit[]; visores: VisorHit[] } {
  const needle = normalise(text);
  if (!needle) return { folders: [], visores: [] };
  const folders: FolderHit[] = [];
  const walk = (list: readonly TreeNode[], path: string[]) => {
    for (const node of list) {
      if (!isFolderNode(node)) continue;
      const folder: FolderNode = node;
      if (normalise(folder.name).includes(needle)) folders.push({ folderId: folder.folder_id, name: folder.name, emoji: folder.emoji, path });
      walk(folder.sub, [...path, folder.name]);
    }
  };
  walk(nodes, []);
  const paths = visorPaths(nodes);
  const visorHits = visores.filter((visor) => normalise(visor.title).includes(needle)).map((visor) => ({ visor, path: paths.get(visor.visor_id) ?? [] }));
  return { folders, visores: visorHits };
}
