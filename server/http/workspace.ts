// Visores, favourites and the folder tree (spec section 7; shapes fixed by issue 3).
// Path segments are named :id and :id2 everywhere so the router can tell the routes apart;
// each handler says which is the user and which the visor. Every write of the tree, a visor
// or a favourite also answers `workspace` (src/protocol/workspace.ts WorkspaceState): the
// client stores it without reading again.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setImmediate as nextLoopRound } from 'node:timers/promises';
import {
  CheckOptionRequest,
  FolderTree,
  MAX_PUSHED_VISOR_BYTES,
  NewVisorRequest,
  UpdateSeccionesRequest,
  UpdateVisorRequest,
  VisorId,
  type Visor,
  type WorkspaceEvent,
} from '../../src/protocol/workspace.js';
import type { AppContext } from '../context.js';
import { ForbiddenError, InvalidError, NotFoundError, TooLargeError } from '../errors.js';
import { matchesIfNoneMatch } from './broker.js';
import { clientAddress } from './clientAddress.js';
import { parseBody } from './errors.js';
import { QUOTA_MESSAGES, WORKSPACE_MESSAGES } from '../workspace/service.js';

interface OneId {
  Params: { id: string };
}
interface TwoIds {
  Params: { id: string; id2: string };
}

export const OTHER_USER = 'No tiene permiso para acceder a los datos de otro usuario';

/** The signed-in user, who must be the one the path names. */
function self(request: FastifyRequest, userId: string) {
  const user = request.user!;
  if (userId !== user.id) throw new ForbiddenError(OTHER_USER);
  return user;
}

function actor(request: FastifyRequest) {
  return { user: request.user!, ...clientAddress(request) };
}

/**
 * A visor as a workspace event carries it: whole, or past MAX_PUSHED_VISOR_BYTES only its id and
 * version (each device reads it). `bodyBytes`: the size of the save that wrote its sections, when
 * known, which spares serializing a megabyte once more only to measure it.
 */
function pushed(visor: Visor, bodyBytes?: number): Pick<WorkspaceEvent, 'visor' | 'behind'> {
  const bytes = bodyBytes ?? (visor.secciones.length === 0 ? 0 : Buffer.byteLength(JSON.stringify(visor.secciones)));
  return bytes <= MAX_PUSHED_VISOR_BYTES ? { visor } : { behind: { id: visor.visor_id, version: visor.version } };
}

/** A visor id from the path; one that cannot exist is simply not found. */
function visorIdOf(raw: string): string {
  if (!VisorId.safeParse(raw).success) throw new NotFoundError(WORKSPACE_MESSAGES.visorNotFound);
  return raw;
}

/** If-Match: a version number, bare or quoted as an ETag ("3", W/"3"). */
export function parseIfMatch(header: string | string[] | undefined, of = 'del árbol'): number | null {
  if (header == null) return null;
  const raw = (Array.isArray(header) ? header[0] : header)!.trim();
  if (raw === '*') return null;
  const match = /^(?:W\/)?"?(\d{1,15})"?$/.exec(raw);
  if (!match) throw new InvalidError(`If-Match debe ser la versión ${of} (un número)`);
  return Number(match[1]);
}

/**
 * What a body may be beyond the room its visor has in the user's byte quota, and still be read:
 * its JSON wrapper and a client's whitespace. The app sends compact JSON, about 20 bytes
 * more than it stores.
 */
export const BODY_PAST_ROOM_BYTES = 64 * 1024;

/**
 * A section save whose declared body (Content-Length) could not fit in the user's byte quota
 * is refused (413) before its body is read: a user whose quota is full could otherwise have the
 * server read and parse a megabyte for every refusal. A body without a length (chunked) is
 * read and checked as it stores, like every save.
 */
function refuseBodyPastRoom(ctx: AppContext) {
  return async (request: FastifyRequest<OneId>): Promise<void> => {
    const length = Number(request.headers['content-length']);
    if (!Number.isSafeInteger(length) || length <= BODY_PAST_ROOM_BYTES || !VisorId.safeParse(request.params.id).success) return;
    const space = await ctx.workspace.sectionsRoom(request.user!, request.params.id);
    if (space && length > space.room + BODY_PAST_ROOM_BYTES)
      throw new TooLargeError(QUOTA_MESSAGES.userFull(space.others + length, ctx.config.quotas.userBytes));
  };
}

export function workspaceRoutes(ctx: AppContext) {
  const workspace = ctx.workspace;
  /** The user's other sessions hear what this request changed (workspace/events.ts). */
  const tell = (request: FastifyRequest, change: Omit<WorkspaceEvent, 'event'>) => ctx.workspaceEvents.changed(request.user!.id, request.tokenHash, change);
  return async (app: FastifyInstance) => {
    // ---------------------------------------------------------------- folder tree
    app.get<OneId>('/visores/:id/folders', async (request, reply) => {
      const user = self(request, request.params.id);
      const tree = await workspace.getTree(user);
      const etag = `"${tree.version}"`;
      reply.header('etag', etag);
      // The client's copy is current (its version check): no body (RFC 9110 section 13.1.2).
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return { status: 'success', data: tree.nodes, version: tree.version };
    });

    app.put<OneId>('/visores/:id/folders', async (request, reply) => {
      self(request, request.params.id);
      const nodes = parseBody(FolderTree, request.body);
      const ifMatch = parseIfMatch(request.headers['if-match']);
      const { version, deleted, workspace: state } = await workspace.saveTree(actor(request), nodes, ifMatch);
      tell(request, { change: 'tree', workspace: state, removed: deleted });
      reply.header('etag', `"${version}"`);
      return { status: 'success', version, deleted, workspace: state };
    });

    // ------------------------------------------------------------------- visores
    app.get<OneId>('/visores/:id', async (request) => {
      const user = self(request, request.params.id);
      return { status: 'success', data: await workspace.listVisores(user) };
    });

    app.get<OneId>('/visores/:id/get', async (request) => {
      const visor = await workspace.getVisor(request.user!, visorIdOf(request.params.id));
      if (!visor) throw new NotFoundError(WORKSPACE_MESSAGES.visorNotFound);
      return { status: 'success', data: visor };
    });

    app.post<OneId>('/visores/:id/new', async (request) => {
      self(request, request.params.id);
      const input = parseBody(NewVisorRequest, request.body);
      const { visor, workspace: state } = await workspace.createVisor(actor(request), input);
      tell(request, { change: 'create', workspace: state, ...pushed(visor) });
      return { status: 'success', data: { id_visor: visor.visor_id, visor }, workspace: state };
    });

    app.put<OneId>('/visores/:id', async (request) => {
      const input = parseBody(UpdateVisorRequest, request.body);
      const { visor, workspace: state } = await workspace.updateVisor(actor(request), visorIdOf(request.params.id), input);
      tell(request, { change: 'visor', workspace: state, ...pushed(visor) });
      return { status: 'success', data: visor, workspace: state };
    });

    app.put<OneId>('/visores/:id/update_secciones', { onRequest: refuseBodyPastRoom(ctx) }, async (request, reply) => {
      const { secciones } = parseBody(UpdateSeccionesRequest, request.body);
      const ifMatch = parseIfMatch(request.headers['if-match'], 'del visor');
      // A save may carry megabytes: its parse and check ran as one stretch of the loop, and its
      // write will run as another (SQLite's is synchronous). Between the two, others' waiting
      // requests go first, so a big save delays them by one stretch, not by the whole save.
      await nextLoopRound();
      const visor = await workspace.updateSecciones(actor(request), visorIdOf(request.params.id), secciones, ifMatch);
      tell(request, { change: 'sections', ...pushed(visor, Number(request.headers['content-length']) || undefined) });
      reply.header('etag', `"${visor.version}"`);
      return { status: 'success', data: visor };
    });

    app.put<OneId>('/visores/:id/check_option', async (request) => {
      const { value } = parseBody(CheckOptionRequest, request.body);
      const visor = await workspace.setPublic(actor(request), visorIdOf(request.params.id), value);
      tell(request, { change: 'public', ...pushed(visor) });
      return { status: 'success', data: visor };
    });

    app.delete<OneId>('/visores/:id', async (request) => {
      const visorId = visorIdOf(request.params.id);
      const state = await workspace.deleteVisor(actor(request), visorId);
      tell(request, { change: 'delete', workspace: state, removed: [visorId] });
      return { status: 'ok', workspace: state };
    });

    // ---------------------------------------------------------------- favourites
    app.put<TwoIds>('/visores/:id/:id2/fav', async (request) => {
      self(request, request.params.id);
      const { fav, workspace: state } = await workspace.toggleFav(actor(request), visorIdOf(request.params.id2));
      tell(request, { change: 'favourite', workspace: state });
      return { status: 'success', data: { fav }, workspace: state };
    });

    app.get<TwoIds>('/visores/:id/:id2/fav', async (request) => {
      const user = self(request, request.params.id);
      return { status: 'success', data: { fav: await workspace.getFav(user, visorIdOf(request.params.id2)) } };
    });

    app.get<OneId>('/visores/:id/getFavs', async (request) => {
      const user = self(request, request.params.id);
      return { status: 'success', data: await workspace.getFavs(user) };
    });

    // ------------------------------------------------------------ clone and owner
    app.post<TwoIds>('/visores/:id/:id2/clonar', async (request) => {
      self(request, request.params.id);
      const { visor, workspace: state } = await workspace.cloneVisor(actor(request), visorIdOf(request.params.id2));
      tell(request, { change: 'clone', workspace: state, ...pushed(visor) });
      return { status: 'success', data: { id_visor: visor.visor_id, visor }, workspace: state };
    });

    app.post<TwoIds>('/visores/:id/:id2/verify_owner_visor', async (request) => {
      const user = self(request, request.params.id);
      const visorId = request.params.id2;
      const owner = VisorId.safeParse(visorId).success && (await workspace.isOwner(user, visorId));
      return { status: 'success', data: { owner } };
    });
  };
}
