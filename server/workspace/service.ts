// The rules of a user's workspace: visores, their sections, sharing, favourites and the
// folder tree, kept consistent with each other in one transaction per change.
//
// The visor row is the truth for title, emoji, colour and favourite; its leaf in the tree
// mirrors them and is rewritten on every change, so the stored tree never disagrees with
// the visores. A tree save may move, add (own visores only) and drop leaves: a dropped
// leaf deletes its visor in the same transaction (deleting a folder deletes what it holds).
//
// Every write of the tree, a visor or a favourite answers the workspace as it left it (the
// stored tree, its version, the favourites), read in the same transaction: the client
// stores that and needs no second request. The favourite rule lives here alone.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  DEFAULT_VISOR_COLOR,
  STALE_VISOR,
  TOO_MANY_SECTIONS,
  storedColor,
  storedSecciones,
  withoutBrokerData,
  type Favourites,
  type PublicVisor,
  type ReadVisor,
  type Section,
  type TreeNode,
  type Visor,
  type VisorNode,
  type VisorSummary,
  type WorkspaceState,
} from '../../src/protocol/workspace.js';
import { appendNode, favouriteFolders, leafOfVisor, mapVisorLeaves, treeProblem, treeShape } from '../../src/lib/folderTree.js';
import type { Db, Dialect } from '../db/index.js';
import type { OperatorLogRepo } from '../db/operatorLog.js';
import type { Database, UserRow, VisorRow } from '../db/schema.js';
import type { StorageQuotas } from '../config.js';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  InvalidError,
  NotFoundError,
  StaleError,
  TooLargeError,
  VersionRequiredError,
} from '../errors.js';
import { treeStore } from './treeStore.js';

export const WORKSPACE_MESSAGES = {
  visorNotFound: 'El visor no existe',
  notOwner: 'Solo el dueño puede modificar este visor',
  folderNotFound: (id: string) => `La carpeta ${id} no existe`,
  notYourVisor: (id: string) => `El visor ${id} no existe o no es suyo`,
  visorIdTaken: 'Ese identificador de visor ya está en uso',
  visorDeleted: 'El visor se borró y no se vuelve a crear con el mismo identificador',
  visorGone: 'El visor ya se borró',
  staleTree: 'El árbol de carpetas cambió en otra pestaña o dispositivo. Recárguelo y vuelva a intentar.',
  deleteNeedsVersion: 'Para borrar visores, guarde el árbol con If-Match: la versión que leyó',
} as const;

const KB = 1024;
const MB = 1024 * 1024;
/** A size as the messages say it: whole KB or MB rounded up, so an answer never reads as within the limit it broke. */
const inKb = (bytes: number) => Math.ceil(bytes / KB);
const inMb = (bytes: number) => Math.ceil((bytes / MB) * 10) / 10;

export const QUOTA_MESSAGES = {
  tooManyVisores: (max: number) => `Llegó al máximo de ${max} visores por usuario: borre alguno que no use para crear otro`,
  sectionTooLarge: (name: string, bytes: number, max: number) =>
    `La sección ${name} ocupa ${inKb(bytes)} KB y el máximo por sección es ${inKb(max)} KB: quite filas, fórmulas o series`,
  userFull: (bytes: number, max: number) =>
    `Sus visores ocuparían ${inMb(bytes).toLocaleString('es-AR')} MB y el máximo por usuario es ${inMb(max).toLocaleString('es-AR')} MB: borre secciones o visores que no use`,
} as const;

/** Bytes of UTF-8 text. */
const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Bytes a visor takes as stored (what the user quota counts): its sections' JSON, title, emoji and colour in UTF-8. */
export function visorBytes(row: Pick<VisorRow, 'secciones' | 'title' | 'emoji' | 'color'>): number {
  return utf8Bytes(row.secciones) + utf8Bytes(row.title) + utf8Bytes(row.emoji) + utf8Bytes(row.color);
}

/** 128 random bits in hex: unguessable, and safe in paths. */
export function newVisorId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Each section's JSON, and joined the visor's as stored (what JSON.stringify(secciones) prints):
 * made once, since sections may weigh megabytes and the size quota reads each.
 */
function sectionsJson(secciones: readonly Section[]): { texts: string[]; json: string } {
  const texts = secciones.map((section) => JSON.stringify(section));
  return { texts, json: `[${texts.join(',')}]` };
}

/** A visor without its sections, as the list carries it: toVisor's fields but one, built directly (a list has up to 200). */
export function toVisorSummary(row: Omit<VisorRow, 'secciones'>): VisorSummary {
  return {
    visor_id: row.id,
    owner: row.owner,
    title: row.title,
    emoji: row.emoji,
    color: storedColor(row.color),
    fav: row.fav === 1,
    public: row.public === 1,
    version: row.version,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function toVisor(row: VisorRow): Visor {
  return { ...toVisorSummary(row), secciones: storedSecciones(row.secciones) };
}

/**
 * What a user other than the owner reads of a public visor: what public mode shows, nothing of
 * the owner's (nor the broker behind a positions section: a visitor sees only their own).
 */
export function toPublicVisor(row: VisorRow): PublicVisor {
  return {
    visor_id: row.id,
    title: row.title,
    emoji: row.emoji,
    color: storedColor(row.color),
    public: true,
    secciones: withoutBrokerData(storedSecciones(row.secciones)),
    version: row.version,
  };
}

function leafOf(row: Pick<VisorRow, 'id' | 'title' | 'emoji' | 'color' | 'fav'>): VisorNode {
  return leafOfVisor({ visor_id: row.id, title: row.title, emoji: row.emoji, color: storedColor(row.color), fav: row.fav === 1 });
}

interface Actor {
  user: UserRow;
  ip: string | null;
  /** The address came from X-Forwarded-For (the log says so). */
  ipForwarded?: boolean;
}

export function createWorkspaceService(db: Db, dialect: Dialect, now: () => number, log: OperatorLogRepo, quotas: StorageQuotas) {
  const trees = treeStore(dialect, now);

  // Quotas. Every write that adds to what a user stores takes the user's tree lock first (a
  // row lock on PostgreSQL; on SQLite its first statement is a write, which holds the file's
  // write lock until the end): a user's writes run one at a time, so each count and sum below
  // sees every other write of the user, parallel ones included. A write that does not grow what
  // is stored is never refused, so a quota lowered below what a user has never locks them out.

  /** Bytes of the user's visores as stored (each row keeps its visorBytes), leaving out `except`. */
  async function storedBytes(trx: Kysely<Database>, userId: string, except: string | null): Promise<number> {
    // Read from the owner's covering index (visores_owner_listing): no section is read.
    let query = trx
      .selectFrom('visores')
      .select(sql<number | string>`coalesce(sum(stored_bytes), 0)`.as('bytes'))
      .where('owner', '=', userId);
    if (except != null) query = query.where('id', '!=', except);
    return Number((await query.executeTakeFirstOrThrow()).bytes);
  }

  /** Refuses (413) a write that takes the user's visores over the byte quota; `before` and `after` are the visor's own bytes. */
  async function checkUserBytes(trx: Kysely<Database>, userId: string, visorId: string | null, before: number, after: number): Promise<void> {
    if (after <= before) return;
    const total = (await storedBytes(trx, userId, visorId)) + after;
    if (total > quotas.userBytes) throw new TooLargeError(QUOTA_MESSAGES.userFull(total, quotas.userBytes));
  }

  /** Refuses (409) a new visor past the count quota. */
  async function checkVisorCount(trx: Kysely<Database>, userId: string): Promise<void> {
    const { count } = await trx
      .selectFrom('visores')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('owner', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= quotas.visoresPerUser) throw new ConflictError(QUOTA_MESSAGES.tooManyVisores(quotas.visoresPerUser));
  }

  /**
   * Refuses sections past the count quota (409) or one over the size quota (413), unless the
   * visor already had as many, or that section was already as big (`stored`: its JSON as stored).
   * `texts` are the sections' JSON, one each, as they will be stored.
   */
  function checkSections(secciones: readonly Section[], texts: readonly string[], stored: string): void {
    let storedSections: Array<{ id?: unknown }> | null = null;
    const before = () => (storedSections ??= JSON.parse(stored) as Array<{ id?: unknown }>);
    if (secciones.length > quotas.sectionsPerVisor && secciones.length > before().length) {
      throw new ConflictError(TOO_MANY_SECTIONS(quotas.sectionsPerVisor));
    }
    secciones.forEach((section, index) => {
      const bytes = utf8Bytes(texts[index]!);
      if (bytes <= quotas.sectionBytes) return;
      const was = before().find((old) => old.id === section.id);
      if (was && utf8Bytes(JSON.stringify(was)) >= bytes) return;
      throw new TooLargeError(QUOTA_MESSAGES.sectionTooLarge(section.title.trim() || section.id, bytes, quotas.sectionBytes));
    });
  }

  const record = (actor: Actor, action: Parameters<OperatorLogRepo['add']>[0]['action'], detail: Record<string, unknown>) =>
    log.add({ userId: actor.user.id, username: actor.user.username, action, detail, ip: actor.ip, ipForwarded: actor.ipForwarded });

  /**
   * A visor the caller may read: its own, or a public one. Null otherwise (do not reveal
   * private ones). With `lock`, on PostgreSQL the row stays locked until the transaction ends.
   */
  async function readable(trx: Kysely<Database>, caller: UserRow, visorId: string, lock = false): Promise<VisorRow | null> {
    let query = trx.selectFrom('visores').selectAll().where('id', '=', visorId);
    if (lock && dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row || (row.owner !== caller.id && row.public !== 1)) return null;
    return row;
  }

  /**
   * Why the caller cannot find `visorId`: 410 when it was the caller's own and was deleted (a
   * change made on another device, or offline, after the delete: asking again will not help),
   * else 404, as for an id never seen or another user's (whose existence is not revealed).
   */
  async function missing(trx: Kysely<Database>, caller: UserRow, visorId: string): Promise<DomainError> {
    const buried = await trx.selectFrom('visor_tombstones').select('id').where('id', '=', visorId).where('owner', '=', caller.id).executeTakeFirst();
    return buried ? new GoneError(WORKSPACE_MESSAGES.visorGone) : new NotFoundError(WORKSPACE_MESSAGES.visorNotFound);
  }

  /**
   * A visor the caller may change: 410 when it deleted it, 404 when it cannot see it, 403 when
   * it is someone else's public one.
   */
  async function owned(trx: Kysely<Database>, caller: UserRow, visorId: string, lock = false): Promise<VisorRow> {
    const row = await readable(trx, caller, visorId, lock);
    if (!row) throw await missing(trx, caller, visorId);
    if (row.owner !== caller.id) throw new ForbiddenError(WORKSPACE_MESSAGES.notOwner);
    return row;
  }

  /**
   * owned(), after taking the caller's tree lock. A change that rewrites a leaf must lock
   * the tree before any visor row, in the same order as a tree save: otherwise the two
   * deadlock on PostgreSQL, and two fav toggles can both read the old value.
   */
  async function ownedTreeLocked(trx: Kysely<Database>, caller: UserRow, visorId: string): Promise<VisorRow> {
    await trees.lock(trx, caller.id);
    return owned(trx, caller, visorId);
  }

  /** Favourite visores by title, and favourite folders of `nodes` with their subtree. */
  async function favouritesOf(trx: Kysely<Database>, userId: string, nodes: readonly TreeNode[]): Promise<Favourites> {
    const rows = await trx.selectFrom('visores').select(['id', 'emoji', 'title']).where('owner', '=', userId).where('fav', '=', 1).orderBy('title').execute();
    return { visores: rows.map((row) => ({ visor_id: row.id, emoji: row.emoji, title: row.title })), folders: favouriteFolders(nodes) };
  }

  /**
   * The workspace as a write left it, read inside the write's transaction after the write,
   * under the tree's lock (the writes hold it already; a new visor left unplaced takes it
   * here): no other change of the tree or a favourite can fall between this and the write.
   */
  async function stateOf(trx: Kysely<Database>, userId: string): Promise<WorkspaceState> {
    const tree = await trees.lock(trx, userId);
    return { tree: tree.nodes, version: tree.version, favourites: await favouritesOf(trx, userId, tree.nodes) };
  }

  /** Rewrites the caller's leaf of `visorId` (or removes it with null) and bumps the version when it was there. */
  async function syncLeaf(trx: Kysely<Database>, userId: string, visorId: string, leaf: VisorNode | null): Promise<void> {
    const tree = await trees.lock(trx, userId);
    let found = false;
    const nodes = mapVisorLeaves(tree.nodes, (node) => {
      if (node.visor_id !== visorId) return node;
      found = true;
      return leaf;
    });
    if (found) await trees.write(trx, userId, nodes, tree.version);
  }

  /**
   * Remembers deleted visores of `owner` (issue 21), in the transaction that deletes them: a
   * create naming one of these ids is refused from then on (410), never made again, and so is
   * a change or delete of it by its owner (missing()).
   */
  async function bury(trx: Kysely<Database>, owner: string, visorIds: readonly string[]): Promise<void> {
    if (visorIds.length === 0) return;
    const at = now();
    await trx
      .insertInto('visor_tombstones')
      .values(visorIds.map((id) => ({ id, owner, deleted_at: at })))
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }

  async function insertVisor(
    trx: Kysely<Database>,
    owner: UserRow,
    /** `secciones`: their JSON as stored (sectionsJson). */
    fields: { title: string; emoji: string; color: string; secciones: string },
    placeIn: string | null | undefined,
    visorId: string = newVisorId(),
  ): Promise<VisorRow> {
    const at = now();
    const row: VisorRow = {
      id: visorId,
      owner: owner.id,
      title: fields.title,
      emoji: fields.emoji,
      color: fields.color,
      fav: 0,
      public: 0,
      secciones: fields.secciones,
      version: 0,
      created_at: at,
      updated_at: at,
      stored_bytes: 0,
    };
    row.stored_bytes = visorBytes(row);
    await trx.insertInto('visores').values(row).execute();
    if (placeIn !== undefined) {
      const tree = await trees.lock(trx, owner.id);
      const nodes = appendNode(tree.nodes, placeIn, leafOf(row));
      if (!nodes) throw new InvalidError(WORKSPACE_MESSAGES.folderNotFound(String(placeIn)));
      const problem = treeProblem(nodes);
      if (problem) throw new InvalidError(problem);
      await trees.write(trx, owner.id, nodes, tree.version);
    }
    return row;
  }

  return {
    async getTree(user: UserRow): Promise<{ nodes: TreeNode[]; version: number }> {
      return trees.read(db, user.id);
    },

    /**
     * Saves the whole tree. With `ifMatch`, a tree whose version moved on answers 412 and
     * changes nothing; without it the save wins, unless it would delete visores (428).
     * Leaves dropped from the tree delete their visores, atomically.
     */
    async saveTree(actor: Actor, nodes: TreeNode[], ifMatch: number | null): Promise<{ version: number; deleted: string[]; workspace: WorkspaceState }> {
      const problem = treeProblem(nodes);
      if (problem) throw new InvalidError(problem);
      const result = await db.transaction().execute(async (trx) => {
        const userId = actor.user.id;
        const tree = await trees.lock(trx, userId);
        if (ifMatch != null && ifMatch !== tree.version) throw new StaleError(WORKSPACE_MESSAGES.staleTree);

        const rows = await trx.selectFrom('visores').select(['id', 'title', 'emoji', 'color', 'fav']).where('owner', '=', userId).execute();
        const byId = new Map(rows.map((row) => [row.id, row]));
        const wanted = treeShape(nodes).visorIds;
        const foreign = wanted.find((id) => !byId.has(id));
        if (foreign != null) throw new InvalidError(WORKSPACE_MESSAGES.notYourVisor(foreign));

        const kept = new Set(wanted);
        const deleted = treeShape(tree.nodes).visorIds.filter((id) => !kept.has(id) && byId.has(id));
        // A save that deletes must say which tree it changed: a stale tab without If-Match
        // would otherwise delete visores another tab just placed.
        if (deleted.length > 0 && ifMatch == null) throw new VersionRequiredError(WORKSPACE_MESSAGES.deleteNeedsVersion);
        if (deleted.length > 0) {
          await trx.deleteFrom('visores').where('owner', '=', userId).where('id', 'in', deleted).execute();
          await bury(trx, userId, deleted);
        }

        // Favourites travel with the tree (a folder's toggle applies to what it holds);
        // the other leaf fields are the visor's own.
        const favChanges: { id: string; fav: number }[] = [];
        const synced = mapVisorLeaves(nodes, (leaf) => {
          const row = byId.get(leaf.visor_id)!;
          const fav = leaf.fav === true ? 1 : 0;
          if (fav !== row.fav) favChanges.push({ id: row.id, fav });
          return leafOf({ ...row, fav });
        });
        for (const change of favChanges) {
          await trx.updateTable('visores').set({ fav: change.fav, updated_at: now() }).where('id', '=', change.id).execute();
        }
        const version = await trees.write(trx, userId, synced, tree.version);
        return { version, deleted, workspace: await stateOf(trx, userId) };
      });
      await record(actor, 'tree_save', { version: result.version, nodes: treeShape(nodes).nodeCount, deletedVisores: result.deleted });
      return result;
    },

    /** The user's visores without their sections (read apart, one visor at a time): the list stays small whatever they store. */
    async listVisores(user: UserRow): Promise<VisorSummary[]> {
      const rows = await db
        .selectFrom('visores')
        .select(['id', 'owner', 'title', 'emoji', 'color', 'fav', 'public', 'version', 'created_at', 'updated_at', 'stored_bytes'])
        .where('owner', '=', user.id)
        .orderBy('updated_at', 'desc')
        .execute();
      return rows.map(toVisorSummary);
    },

    /** The caller's own visor whole; someone else's public one with its public fields only (issue 17). */
    async getVisor(caller: UserRow, visorId: string): Promise<ReadVisor | null> {
      const row = await readable(db, caller, visorId);
      if (!row) return null;
      return row.owner === caller.id ? toVisor(row) : toPublicVisor(row);
    },

    async createVisor(
      actor: Actor,
      input: { title: string; emoji: string; color: string; folder_id?: string | null | undefined; visor_id?: string | undefined },
    ): Promise<{ visor: Visor; workspace: WorkspaceState }> {
      const create = () =>
        db.transaction().execute(async (trx) => {
          await trees.lock(trx, actor.user.id);
          if (input.visor_id !== undefined) {
            // A create sent again (its first answer lost): the visor it made, as it is now.
            const existing = await trx.selectFrom('visores').selectAll().where('id', '=', input.visor_id).executeTakeFirst();
            if (existing && existing.owner !== actor.user.id) throw new ConflictError(WORKSPACE_MESSAGES.visorIdTaken);
            if (existing) return { row: existing, workspace: await stateOf(trx, actor.user.id), created: false };
            // A create sent again after the visor was deleted (another device, while this one
            // was offline): it stays deleted. Another user's deleted id is just taken.
            const buried = await trx.selectFrom('visor_tombstones').select('owner').where('id', '=', input.visor_id).executeTakeFirst();
            if (buried)
              throw buried.owner === actor.user.id ? new GoneError(WORKSPACE_MESSAGES.visorDeleted) : new ConflictError(WORKSPACE_MESSAGES.visorIdTaken);
          }
          const fields = { title: input.title, emoji: input.emoji, color: input.color || DEFAULT_VISOR_COLOR, secciones: '[]' };
          await checkVisorCount(trx, actor.user.id);
          await checkUserBytes(trx, actor.user.id, null, 0, visorBytes(fields));
          const inserted = await insertVisor(trx, actor.user, fields, input.folder_id, input.visor_id);
          return { row: inserted, workspace: await stateOf(trx, actor.user.id), created: true };
        });
      let outcome: Awaited<ReturnType<typeof create>>;
      try {
        outcome = await create();
      } catch (error) {
        // The same create sent twice at once: the other one inserted the id first. Asked again,
        // it finds that visor (or refuses another user's id, or a deleted one).
        if (input.visor_id === undefined || error instanceof DomainError) throw error;
        const taken = await db.selectFrom('visores').select('id').where('id', '=', input.visor_id).executeTakeFirst();
        if (!taken) throw error;
        outcome = await create();
      }
      const { row, workspace, created } = outcome;
      if (created) await record(actor, 'visor_create', { visor_id: row.id, title: row.title, folder_id: input.folder_id });
      return { visor: toVisor(row), workspace };
    },

    async updateVisor(
      actor: Actor,
      visorId: string,
      input: { title: string; emoji?: string | undefined; color?: string | undefined },
    ): Promise<{ visor: Visor; workspace: WorkspaceState }> {
      const { row, workspace } = await db.transaction().execute(async (trx) => {
        const current = await ownedTreeLocked(trx, actor.user, visorId);
        const next: VisorRow = {
          ...current,
          title: input.title,
          emoji: input.emoji ?? current.emoji,
          color: input.color ?? current.color,
          updated_at: now(),
        };
        const bytes = visorBytes(next);
        await checkUserBytes(trx, actor.user.id, visorId, Number(current.stored_bytes), bytes);
        await trx
          .updateTable('visores')
          .set({ title: next.title, emoji: next.emoji, color: next.color, updated_at: next.updated_at, stored_bytes: bytes })
          .where('id', '=', visorId)
          .execute();
        await syncLeaf(trx, actor.user.id, visorId, leafOf(next));
        return { row: next, workspace: await stateOf(trx, actor.user.id) };
      });
      await record(actor, 'visor_update', { visor_id: visorId, title: row.title });
      return { visor: toVisor(row), workspace };
    },

    /**
     * How big a save of the visor's sections may be before the byte quota refuses it: what the
     * user has free besides this visor, or what the visor stores now if that is more (a save
     * that does not grow is never refused). Null when the visor is not the user's: the save
     * itself answers that. Read before a body is: see the route.
     */
    async sectionsRoom(user: UserRow, visorId: string): Promise<{ room: number; others: number } | null> {
      const own = await db.selectFrom('visores').select('stored_bytes').where('id', '=', visorId).where('owner', '=', user.id).executeTakeFirst();
      if (!own) return null;
      const others = await storedBytes(db, user.id, visorId);
      return { room: Math.max(Number(own.stored_bytes), quotas.userBytes - others), others };
    },

    /**
     * Saves the sections and bumps the visor's version. With `ifMatch`, a visor whose version
     * moved on (another tab or device saved) answers 412 and changes nothing; without it the save wins.
     */
    async updateSecciones(actor: Actor, visorId: string, secciones: Section[], ifMatch: number | null = null): Promise<Visor> {
      const { texts, json: stored } = sectionsJson(secciones);
      const row = await db.transaction().execute(async (trx) => {
        // The tree lock first (the quotas' order, above), then the visor's row.
        await trees.lock(trx, actor.user.id);
        const current = await owned(trx, actor.user, visorId, true);
        if (ifMatch != null && ifMatch !== current.version) throw new StaleError(STALE_VISOR);
        const next = { ...current, secciones: stored, version: current.version + 1, updated_at: now() };
        checkSections(secciones, texts, current.secciones);
        const bytes = visorBytes(next);
        await checkUserBytes(trx, actor.user.id, visorId, Number(current.stored_bytes), bytes);
        // The version in the WHERE too: on SQLite two transactions may both have read the old
        // row (no row locks); only one of them updates it.
        const updated = await trx
          .updateTable('visores')
          .set({ secciones: next.secciones, version: next.version, updated_at: next.updated_at, stored_bytes: bytes })
          .where('id', '=', visorId)
          .where('version', '=', current.version)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new StaleError(STALE_VISOR);
        return next;
      });
      await record(actor, 'visor_update', { visor_id: visorId, secciones: secciones.length });
      // The sections as validated are the ones stored: the answer needs no second read of the JSON.
      return { ...toVisorSummary(row), secciones };
    },

    async setPublic(actor: Actor, visorId: string, value: boolean): Promise<Visor> {
      const row = await db.transaction().execute(async (trx) => {
        // Under the tree's lock like every change of a visor (workspace/treeStore.ts): a share
        // and a tree save or another change of the visor never interleave.
        const current = await ownedTreeLocked(trx, actor.user, visorId);
        const next = { ...current, public: value ? 1 : 0, updated_at: now() };
        await trx.updateTable('visores').set({ public: next.public, updated_at: next.updated_at }).where('id', '=', visorId).execute();
        return next;
      });
      await record(actor, 'visor_share', { visor_id: visorId, public: value });
      return toVisor(row);
    },

    async deleteVisor(actor: Actor, visorId: string): Promise<WorkspaceState> {
      const { title, workspace } = await db.transaction().execute(async (trx) => {
        const current = await ownedTreeLocked(trx, actor.user, visorId);
        await syncLeaf(trx, actor.user.id, visorId, null);
        await trx.deleteFrom('visores').where('id', '=', visorId).execute();
        await bury(trx, actor.user.id, [visorId]);
        return { title: current.title, workspace: await stateOf(trx, actor.user.id) };
      });
      await record(actor, 'visor_delete', { visor_id: visorId, title });
      return workspace;
    },

    /** Flips the favourite of an own visor; answers the new value. */
    async toggleFav(actor: Actor, visorId: string): Promise<{ fav: boolean; workspace: WorkspaceState }> {
      return db.transaction().execute(async (trx) => {
        const current = await ownedTreeLocked(trx, actor.user, visorId);
        const next = { ...current, fav: current.fav === 1 ? 0 : 1, updated_at: now() };
        await trx.updateTable('visores').set({ fav: next.fav, updated_at: next.updated_at }).where('id', '=', visorId).execute();
        await syncLeaf(trx, actor.user.id, visorId, leafOf(next));
        return { fav: next.fav === 1, workspace: await stateOf(trx, actor.user.id) };
      });
    },

    /** The caller's favourite flag of a visor: 410 for one it deleted (the outbox reads it before setting it). */
    async getFav(caller: UserRow, visorId: string): Promise<boolean> {
      const row = await readable(db, caller, visorId);
      if (!row) throw await missing(db, caller, visorId);
      return row.owner === caller.id && row.fav === 1;
    },

    async getFavs(user: UserRow): Promise<Favourites> {
      const tree = await trees.read(db, user.id);
      return favouritesOf(db, user.id, tree.nodes);
    },

    /**
     * Copies an own or public visor for the caller, at the root of the caller's tree. A copy of
     * someone else's visor gets its sections as the caller reads them: without the owner's broker.
     */
    async cloneVisor(actor: Actor, visorId: string): Promise<{ visor: Visor; workspace: WorkspaceState }> {
      const { row, workspace } = await db.transaction().execute(async (trx) => {
        await trees.lock(trx, actor.user.id);
        const source = await readable(trx, actor.user, visorId);
        if (!source) throw new NotFoundError(WORKSPACE_MESSAGES.visorNotFound);
        const title = `${source.title} (copia)`.slice(0, 200);
        const stored = storedSecciones(source.secciones);
        const secciones = source.owner === actor.user.id ? stored : withoutBrokerData(stored);
        await checkVisorCount(trx, actor.user.id);
        const { texts, json } = sectionsJson(secciones);
        checkSections(secciones, texts, '[]');
        const fields = { title, emoji: source.emoji, color: storedColor(source.color), secciones: json };
        await checkUserBytes(trx, actor.user.id, null, 0, visorBytes(fields));
        const inserted = await insertVisor(trx, actor.user, fields, null);
        return { row: inserted, workspace: await stateOf(trx, actor.user.id) };
      });
      await record(actor, 'visor_clone', { visor_id: row.id, source: visorId });
      return { visor: toVisor(row), workspace };
    },

    async isOwner(user: UserRow, visorId: string): Promise<boolean> {
      const row = await db.selectFrom('visores').select('owner').where('id', '=', visorId).executeTakeFirst();
      return row?.owner === user.id;
    },
  };
}
export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
