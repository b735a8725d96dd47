// Reading and writing one user's folder tree inside a transaction. Every change to a user's
// tree or visores takes the tree row's lock first, so a tree save and a visor change never
// interleave and the version always says what the client last saw.
import type { Kysely } from 'kysely';
import type { TreeNode } from '../../src/protocol/workspace.js';
import { cleanStoredTree } from '../../src/lib/folderTree.js';
import type { Dialect } from '../db/index.js';
import type { Database } from '../db/schema.js';

export interface LockedTree {
  nodes: TreeNode[];
  version: number;
}

export function treeStore(dialect: Dialect, now: () => number) {
  return {
    /** Reads the tree (creating an empty one) and, on PostgreSQL, locks its row until the transaction ends. */
    async lock(trx: Kysely<Database>, userId: string): Promise<LockedTree> {
      await trx
        .insertInto('folder_trees')
        .values({ user_id: userId, nodes: '[]', version: 0, updated_at: now() })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      let query = trx.selectFrom('folder_trees').select(['nodes', 'version']).where('user_id', '=', userId);
      // SQLite runs one write transaction at a time already; it has no FOR UPDATE.
      if (dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirstOrThrow();
      return { nodes: cleanStoredTree(JSON.parse(row.nodes) as TreeNode[]), version: row.version };
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
