// Reading and writing one user's folder tree inside a transaction. Every change to a user's
// tree or visores takes the tree row's lock first, so a tree save and a visor change never
// interleave and the version always says what the client last saw.
import type { Kysely } from 'kysely';
import type { TreeNode } from '../../src/protocol/workspace.js';
import { cleanStoredTree } from '../../src/lib/folderTree.js';
import type { Database } from '../db/schema.js';

export interface LockedTree {
  nodes: TreeNode[];
  version: number;
}

export function treeStore(now: () => number) {
  return {
    /**
     * Reads the tree (creating an empty one) and locks its row until the transaction ends,
     * counting one change of the user's workspace: whoever takes the lock is about to change
     * the tree or a visor (changes() below tells a reader whether its copy is still current).
     */
    async lock(trx: Kysely<Database>, userId: string): Promise<LockedTree> {
      await trx
        .insertInto('folder_trees')
        .values({ user_id: userId, nodes: '[]', version: 0, updated_at: now() })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      // An update locks the row on PostgreSQL as FOR UPDATE would; SQLite runs one write
      // transaction at a time already.
      const row = await trx
        .updateTable('folder_trees')
        .set((eb) => ({ changes: eb('changes', '+', 1) }))
        .where('user_id', '=', userId)
        .returning(['nodes', 'version'])
        .executeTakeFirstOrThrow();
      return { nodes: cleanStoredTree(JSON.parse(row.nodes) as TreeNode[]), version: row.version };
    },
    /** How many times the user's tree or visores were locked to change: a copy read at one count is current while it stands. */
    async changes(db: Kysely<Database>, userId: string): Promise<number> {
      const row = await db.selectFrom('folder_trees').select('changes').where('user_id', '=', userId).executeTakeFirst();
      return row ? Number(row.changes) : 0;
    },
    /** Writes the tree with the next version and returns it. */
    async write(trx: Kysely<Database>, userId: string, nodes: TreeNode[], previous: number): Promise<number> {
      const version = previous + 1;
      await trx
        .updateTable('folder_trees')
        .set({ nodes: JSON.stringify(nodes), version, updated_at: now() })
        .where('user_id', '=', userId)
        .execute();
      return version;
    },

    async read(db: Kysely<Database>, userId: string): Promise<LockedTree> {
      const row = await db.selectFrom('folder_trees').select(['nodes', 'version']).where('user_id', '=', userId).executeTakeFirst();
      return row ? { nodes: cleanStoredTree(JSON.parse(row.nodes) as TreeNode[]), version: row.version } : { nodes: [], version: 0 };
    },
  };
}
export type TreeStore = ReturnType<typeof treeStore>;
