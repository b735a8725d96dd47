// A user's workspace on every device: each write is told, as a `workspace` event on /ws/market,
// to every other session of the same user, on this process and (with Redis) on every other,
// and never to the session that wrote it nor to another user. The event carries the versions
// the write answered, so a device that has them reads nothing. On one process (in-process
// server, SQLite); across two real processes on one Redis when TEST_REDIS_URL is set (on
// PostgreSQL when TEST_DATABASE_URL is set too).
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import {
  DeleteVisorResponse,
  MAX_PUSHED_VISOR_BYTES,
  NewVisorResponse,
  SaveTreeResponse,
  ToggleFavResponse,
  UpdateVisorResponse,
  VisorResponse,
  WorkspaceEvent,
  type Section,
  type WorkspaceChangeKind,
} from '../../src/protocol/workspace.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  createUser,
  expectBody,
  expectPong,
  expectShape,
  nextWorkspaceEvent,
  openAuthenticatedSocket,
  session,
  takeWorkspaceEvents,
  type Session,
} from './helpers.js';
import { testSchemaUrl } from './pgSchemas.js';
import { dropRedisKeys } from './redisKeys.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';
import { SECTIONS, leaf, readTree, saveTree } from './workspace.js';

const [sqlite] = databaseTargets();
const opened: WebSocket[] = [];

async function marketSocket(server: { wsUrl(socketPath: string): string }, who: Session): Promise<WebSocket> {
  const socket = await openAuthenticatedSocket(server.wsUrl('/ws/market'), who.token);
  opened.push(socket);
  return socket;
}

/** The next workspace event of `socket`, checked against the protocol. */
async function nextEvent(socket: WebSocket): Promise<WorkspaceEvent> {
  return expectShape(WorkspaceEvent, await nextWorkspaceEvent(socket), 'the workspace event');
}

/**
 * `socket` got no workspace event: a ping is answered after anything the server sent before it,
 * and the event of a write is sent before the write's answer, so one would be there by now.
 */
async function expectNoEvent(socket: WebSocket, what: string): Promise<void> {
  await expectPong(socket, `none-${what}`);
  expect(takeWorkspaceEvents(socket), what).toEqual([]);
}

/**
 * Every write of the workspace through `writer`, each followed by the event `listener` (another
 * session of the same user, perhaps on another process) must get: the change's kind and the
 * versions the write answered.
 */
async function everyWriteTold(writer: Session, listener: WebSocket, quiet: WebSocket[]): Promise<void> {
  const { api, user } = writer;
  const expectTold = async (change: WorkspaceChangeKind, expected: Omit<WorkspaceEvent, 'event' | 'change'>) => {
    expect(await nextEvent(listener)).toEqual({ event: 'workspace', change, ...expected });
    for (const [i, socket] of quiet.entries()) await expectNoEvent(socket, `${change}-${i}`);
  };

  const created = expectBody(await api.post(`/api/visores/${user._id}/new`, { title: 'Desde el escritorio' }), NewVisorResponse);
  const visorId = created.data.id_visor;
  await expectTold('create', { workspace: created.workspace, visor: created.data.visor });

  const renamed = expectBody(await api.put(`/api/visores/${visorId}`, { title: 'Renombrado' }), UpdateVisorResponse);
  await expectTold('visor', { workspace: renamed.workspace, visor: renamed.data });

  const sections = expectBody(await api.put(`/api/visores/${visorId}/update_secciones`, { secciones: SECTIONS }), VisorResponse);
  await expectTold('sections', { visor: sections.data });

  const shared = expectBody(await api.put(`/api/visores/${visorId}/check_option`, { option: 'public', value: true }), VisorResponse);
  await expectTold('public', { visor: shared.data });

  const fav = expectBody(await api.put(`/api/visores/${user._id}/${visorId}/fav`, {}), ToggleFavResponse);
  await expectTold('favourite', { workspace: fav.workspace });

  const tree = await readTree(writer);
  const moved = expectBody(await saveTree(writer, [{ folder_id: 'f1', name: 'Carpeta', emoji: '📁', sub: [leaf(visorId)] }], tree.version), SaveTreeResponse);
  await expectTold('tree', { workspace: moved.workspace, removed: moved.deleted });

  const clone = expectBody(await api.post(`/api/visores/${user._id}/${visorId}/clonar`, {}), NewVisorResponse);
  await expectTold('clone', { workspace: clone.workspace, visor: clone.data.visor });

  const deleted = expectBody(await api.del(`/api/visores/${visorId}`), DeleteVisorResponse);
  await expectTold('delete', { workspace: deleted.workspace, removed: [visorId] });
}

/** `socket` heard the eight writes of everyWriteTold, in order. */
async function expectHeardEveryWrite(socket: WebSocket): Promise<void> {
  const kinds: string[] = [];
  for (let i = 0; i < 8; i += 1) kinds.push((await nextEvent(socket)).change);
  expect(kinds).toEqual(['create', 'visor', 'sections', 'public', 'favourite', 'tree', 'clone', 'delete']);
}

/** Another session (another device) of `who`, signed in on `server`. */
const sameUser = (server: { baseUrl: string }, who: Session) => session(server, { username: who.user.username, password: who.password });

afterAll(() => {
  for (const socket of opened.splice(0)) socket.terminate();
});

describe('workspace events on one process', () => {
  let server: TestServer;
  let admin: Session;

  beforeAll(async () => {
    server = await startServer(sqlite!);
    admin = await session(server, ADMIN);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("every write reaches the user's other sessions, not the writer's nor another user's", async () => {
    const trader = await createUser(server, admin.token);
    const phone = await sameUser(server, trader);
    const tablet = await sameUser(server, trader);
    const [writerSocket, phoneSocket, tabletSocket, otherSocket] = await Promise.all([
      marketSocket(server, trader),
      marketSocket(server, phone),
      marketSocket(server, tablet),
      marketSocket(server, admin),
    ]);
    // The phone is checked event by event; the writer's own socket and another user's hear nothing.
    await everyWriteTold(trader, phoneSocket, [writerSocket, otherSocket]);
    // The tablet heard the same eight, in order.
    await expectHeardEveryWrite(tabletSocket);
  });

  it('a visor too big to push is named with its version, for each device to read', async () => {
    const trader = await createUser(server, admin.token);
    const phone = await sameUser(server, trader);
    const phoneSocket = await marketSocket(server, phone);
    const visorId = expectBody(await trader.api.post(`/api/visores/${trader.user._id}/new`, { title: 'Grande' }), NewVisorResponse).data.id_visor;
    await nextEvent(phoneSocket);
    // Formula sections of ~20 KB each, past the push limit together.
    const big: Section[] = Array.from({ length: 4 }, (_, i) => ({
      id: `big${i}`,
      type: 'formula',
      title: `Grande ${i}`,
      layout: { x: 0, y: i * 4, w: 6, h: 4 },
      config: {
        formulas: Array.from({ length: 40 }, (_, f) => ({ name: `F${f}`, expression: `BYMA:AL30 / BYMA:AL30D + ${'1'.repeat(400)}`, unit: 'price' as const })),
      },
    }));
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_PUSHED_VISOR_BYTES);
    const saved = expectBody(await trader.api.put(`/api/visores/${visorId}/update_secciones`, { secciones: big }), VisorResponse);
    expect(await nextEvent(phoneSocket)).toEqual({ event: 'workspace', change: 'sections', behind: { id: visorId, version: saved.data.version } });
  });

  it('a refused write tells nobody, and a socket that closed hears nothing more', async () => {
    const trader = await createUser(server, admin.token);
    const phone = await sameUser(server, trader);
    const phoneSocket = await marketSocket(server, phone);
    const stale = await saveTree(trader, [], 999);
    expect(stale.status).toBe(412);
    await expectNoEvent(phoneSocket, 'stale tree');
    phoneSocket.close();
    await new Promise<void>((resolve) => phoneSocket.once('close', () => resolve()));
    // The server forgot the closed socket: a write after it finds nobody to tell, and fails nothing.
    const created = await trader.api.post(`/api/visores/${trader.user._id}/new`, { title: 'Nadie escucha' });
    expect(created.status, created.text).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || null;
if (!redisUrl) console.log('Workspace-events-on-Redis API tests skipped: TEST_REDIS_URL is not set');

describe.runIf(redisUrl)('workspace events across two processes on Redis', () => {
  const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-workspace-events-'));
  const children: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of children) if (child.exitCode == null && child.signalCode == null) child.kill('SIGKILL');
    await dropRedisKeys(redisUrl!, prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a write on one process reaches the user's sessions on the other, and on its own", async () => {
    // Dropped by the global teardown (pgSchemas.ts).
    const database = postgresUrl ? (await testSchemaUrl(postgresUrl)).databaseUrl : null;
    const start = async (): Promise<ServerProcess> => {
      const started = await startServerProcess({
        DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database } : {}),
        STATIC_DIR: path.join(dataDir, 'no-client'),
        SIM_TICKS_PER_SECOND: '5',
        REDIS_URL: redisUrl!,
        REDIS_PREFIX: prefix,
      });
      children.push(started.child);
      return started;
    };
    const first = await start();
    const second = await start();
    const admin = await session(first, ADMIN);
    const trader = await createUser(first, admin.token);
    const phone = await sameUser(second, trader);
    const desk = await sameUser(first, trader);
    const [writerSocket, phoneSocket, deskSocket, otherSocket] = await Promise.all([
      marketSocket(first, trader),
      marketSocket(second, phone),
      marketSocket(first, desk),
      marketSocket(second, admin),
    ]);
    await everyWriteTold(trader, phoneSocket, [writerSocket, otherSocket]);
    // The session on the writer's own process heard each once (told here, not again through Redis).
    await expectHeardEveryWrite(deskSocket);
    await expectNoEvent(deskSocket, 'desk after the eight');
  });
});
