// The outbox of workspace writes made while the server cannot be reached (issue 21). Each
// write is kept in Dexie in the order made (so it survives closing every tab: the next worker
// replays it, workers/outboxReplay.ts) and applied at once to the cached workspace, so every
// tab shows it. Only intents are kept (set this favourite, move this node…), never finished
// trees: a replay applies them again on what the server has by then.
import { applyTreeChange, type TreeChange } from '../lib/treeChanges';
import { appendNode, favouriteFolders, leafOfVisor, mapVisorLeaves } from '../lib/folderTree';
import { DEFAULT_VISOR_COLOR, isFolderNode, isOwnVisor, type FavItem, type Section, type TreeNode, type Visor } from '../protocol/workspace';
import type { OutboxRecord, VisoresDb } from '../shared/db';
import type { VisorFields } from './sync';

/** A write the outbox holds. */
export type OutboxOp =
  | { kind: 'tree'; change: TreeChange }
  /** `visorId` is chosen here and sent with the create: a create sent twice makes one visor. */
  | { kind: 'createVisor'; visorId: string; fields: VisorFields; folderId?: string | null }
  | { kind: 'updateVisor'; visorId: string; fields: VisorFields }
  | { kind: 'deleteVisor'; visorId: string }
  /** Set, never toggled: sent again, it cannot undo itself. */
  | { kind: 'favourite'; visorId: string; fav: boolean }
  | { kind: 'public'; visorId: string; value: boolean }
  /** The sections as the tab left them (`sections`), over what it read (`base`, at `version`). */
  | { kind: 'secciones'; visorId: string; base: Section[]; sections: Section[]; version: number };

export interface OutboxEntry {
  seq: number;
  key: string;
  op: OutboxOp;
  createdAt: number;
}

/** The visores an op names (a later op naming one the server no longer has is dropped). */
export function visorOf(op: OutboxOp): string | null {
  return op.kind === 'tree' ? null : op.visorId;
}

/** Whether the op changes the visor `visorId`, or moves its leaf. */
export function namesVisor(op: OutboxOp, visorId: string): boolean {
  if (op.kind !== 'tree') return visorOf(op) === visorId;
  return op.change.kind === 'move' && op.change.node.kind === 'visor' && op.change.node.id === visorId;
}

/** Visor ids of every leaf under the folder `folderId` (deleting it deletes them). */
function leavesUnder(nodes: readonly TreeNode[], folderId: string): string[] {
  const ids: string[] = [];
  const collect = (list: readonly TreeNode[], inside: boolean) => {
    for (const node of list) {
      if (isFolderNode(node)) collect(node.sub, inside || node.folder_id === folderId);
      else if (inside) ids.push(node.visor_id);
    }
  };
  collect(nodes, false);
  return ids;
}

const byTitle = (a: FavItem, b: FavItem) => a.title.localeCompare(b.title, 'es', { sensitivity: 'base' });

export function createOutbox({ db, now, newKey = () => crypto.randomUUID() }: { db: VisoresDb; now: () => number; newKey?: () => string }) {
  const table = db.outbox;

  async function entries(userId: string): Promise<OutboxEntry[]> {
    const records = await table.where('userId').equals(userId).sortBy('seq');
    return records.map((record) => ({ seq: record.seq!, key: record.key, op: record.op as unknown as OutboxOp, createdAt: record.createdAt }));
  }

  /**
   * The op applied to the cached workspace of the user: tree, visor rows and favourites as
   * the server would leave them (its rules for leaves and favourites, approximated here until
   * the replay's answer replaces them). An op that no longer applies changes nothing.
   */
  async function applyLocally(userId: string, op: OutboxOp): Promise<void> {
    await db.transaction('rw', db.folderTrees, db.visores, db.favourites, async () => {
      const tree = await db.folderTrees.get(userId);
      const favourites = (await db.favourites.get(userId)) ?? { userId, visores: [], folders: [] };
      let nodes = tree?.nodes ?? [];
      const cached = op.kind === 'tree' ? undefined : await db.visores.get([userId, op.visorId]);
      const own = cached && isOwnVisor(cached) ? cached : null;
      const putVisor = (visor: Visor) => db.visores.put({ ...visor, userId });
      const updateLeaf = (visor: Visor) => {
        nodes = mapVisorLeaves(nodes, (leaf) => (leaf.visor_id === visor.visor_id ? leafOfVisor(visor) : leaf));
        const listed = favourites.visores.filter((item) => item.visor_id !== visor.visor_id);
        if (visor.fav) listed.push({ visor_id: visor.visor_id, emoji: visor.emoji, title: visor.title });
        favourites.visores = listed.sort(byTitle);
      };
      switch (op.kind) {
        case 'tree': {
          const outcome = applyTreeChange(nodes, op.change);
          if (!outcome.ok || !outcome.changed) return;
          if (op.change.kind === 'deleteFolder') {
            const gone = leavesUnder(nodes, op.change.folderId);
            await db.visores.bulkDelete(gone.map((visorId): [string, string] => [userId, visorId]));
            favourites.visores = favourites.visores.filter((item) => !gone.includes(item.visor_id));
          }
          nodes = outcome.nodes;
          break;
        }
        case 'createVisor': {
          const at = new Date(now()).toISOString();
          const visor: Visor = {
            visor_id: op.visorId,
            owner: userId,
            title: op.fields.title,
            emoji: op.fields.emoji ?? '',
            color: op.fields.color || DEFAULT_VISOR_COLOR,
            fav: false,
            public: false,
            secciones: [],
            version: 0,
            created_at: at,
            updated_at: at,
          };
          await putVisor(visor);
          if (op.folderId !== undefined) nodes = appendNode(nodes, op.folderId, leafOfVisor(visor)) ?? appendNode(nodes, null, leafOfVisor(visor)) ?? nodes;
          break;
        }
        case 'updateVisor': {
          if (!own) return;
          const visor = { ...own, title: op.fields.title, emoji: op.fields.emoji ?? own.emoji, color: op.fields.color ?? own.color };
          await putVisor(visor);
          updateLeaf(visor);
          break;
        }
        case 'deleteVisor':
          await db.visores.delete([userId, op.visorId]);
          nodes = mapVisorLeaves(nodes, (leaf) => (leaf.visor_id === op.visorId ? null : leaf));
          favourites.visores = favourites.visores.filter((item) => item.visor_id !== op.visorId);
          break;
        case 'favourite': {
          if (!own) return;
          const visor = { ...own, fav: op.fav };
          await putVisor(visor);
          updateLeaf(visor);
          break;
        }
        case 'public':
          if (own) await putVisor({ ...own, public: op.value });
          return;
        case 'secciones':
          if (own) await db.visores.put({ ...own, secciones: op.sections, localRev: (own.localRev ?? 0) + 1 });
          return;
      }
      favourites.folders = favouriteFolders(nodes);
      await db.favourites.put(favourites);
      if (tree) await db.folderTrees.put({ ...tree, nodes });
    });
  }

  return {
    entries,
    applyLocally,

    async count(userId: string): Promise<number> {
      return table.where('userId').equals(userId).count();
    },

    /**
     * Keeps the op after the user's others and applies it to the cache. A save of a visor's
     * sections while an earlier one of that visor waits is folded into it: the same base and
     * version, the newer sections (one request, and no conflict with its own earlier save).
     */
    async add(userId: string, op: OutboxOp): Promise<void> {
      await db.transaction('rw', table, async () => {
        if (op.kind === 'secciones') {
          const waiting = (await table.where('userId').equals(userId).sortBy('seq')).filter(
            (record) => record.op.kind === 'secciones' && record.op['visorId'] === op.visorId,
          );
          const last = waiting.at(-1);
          if (last) {
            await table.update(last.seq!, { op: { ...last.op, sections: op.sections } });
            return;
          }
        }
        const record: OutboxRecord = { userId, key: newKey(), op: op as unknown as OutboxRecord['op'], createdAt: now() };
        await table.add(record);
      });
      await applyLocally(userId, op);
    },

    /** The op was replayed (or dropped). */
    async remove(seq: number): Promise<void> {
      await table.delete(seq);
    },

    /**
     * Leaves out the user's waiting ops that name the visor `visorId` (its create or a change
     * was refused with 410: another device deleted it), which would only be refused one by one.
     * Answers them.
     */
    async dropNaming(userId: string, visorId: string): Promise<OutboxOp[]> {
      return db.transaction('rw', table, async () => {
        const records = await table
          .where('userId')
          .equals(userId)
          .filter((record) => namesVisor(record.op as unknown as OutboxOp, visorId))
          .toArray();
        await table.bulkDelete(records.map((record) => record.seq!));
        return records.map((record) => record.op as unknown as OutboxOp);
      });
    },

    /** Logout: the user's pending writes go with the rest of their data. */
    async wipe(userId: string): Promise<void> {
      await table.where('userId').equals(userId).delete();
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
