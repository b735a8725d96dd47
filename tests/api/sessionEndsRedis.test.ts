// Sessions ended on one process end on every other: two real server processes on one Redis
// and one database. A logout, a disable or a delete through the first closes the user's
// sockets on the second with 4401 within 2 s, and the broker session the second holds for a
// disabled user ends there. Runs when TEST_REDIS_URL is set; on PostgreSQL (a schema of its
// own) when TEST_DATABASE_URL is set too, else on one SQLite file both processes open.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { AdminPositionsResponse } from '../../src/protocol/broker.js';
import { ADMIN, checkToken, createUser, expectBody, expectPong, expectSuccess, logout, pollUntil, session, type Session } from './helpers.js';
import { dropRedisKeys } from './redisKeys.js';
import { ENDED_WITHIN_MS, expectEnded, openSessionSockets } from './sessionSockets.js';
import { testSchemaUrl } from './pgSchemas.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || null;
if (!redisUrl) console.log('Session-end-on-Redis API tests skipped: TEST_REDIS_URL is not set');
else if (!postgresUrl) console.log('Session-end-on-Redis API tests run on a shared SQLite file: TEST_DATABASE_URL is not set');

const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-session-ends-'));
const children: ChildProcess[] = [];
const opened: WebSocket[] = [];

let databaseUrl: string | null = null;
async function sharedDatabaseUrl(): Promise<string | null> {
  if (!postgresUrl || databaseUrl) return databaseUrl;
  // Dropped by the global teardown, not here: a schema dropped while another file migrates breaks that migration (pgSchemas.ts).
  return (databaseUrl = (await testSchemaUrl(postgresUrl)).databaseUrl);
}

async function startProcess(): Promise<ServerProcess> {
  const database = await sharedDatabaseUrl();
  const started = await startServerProcess({
    DATA_DIR: dataDir,
    ...(database ? { DATABASE_URL: database } : {}),
    STATIC_DIR: path.join(dataDir, 'no-client'),
    SIM_TICKS_PER_SECOND: '20',
    REDIS_URL: redisUrl!,
    REDIS_PREFIX: prefix,
  });
  children.push(started.child);
  return started;
}

afterAll(async () => {
  for (const socket of opened) socket.terminate();
  for (const child of children) if (child.exitCode == null && child.signalCode == null) child.kill('SIGKILL');
  if (redisUrl) {
    await dropRedisKeys(redisUrl, prefix);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const socketsOn = (server: ServerProcess, user: Session) => openSessionSockets(server, user.token, opened);

describe.runIf(redisUrl)('sessions ending across two processes on Redis', () => {
  it('a logout, a disable or a delete on one process closes the sockets on the other, and ends the broker sessions it holds', async () => {
    const first = await startProcess();
    const second = await startProcess();
    const admin = await session(first, ADMIN);

    // Logout through the first of a session whose sockets are on the second; another session stays.
    const trader = await createUser(first, admin.token);
    const traderOnSecond = await session(second, { username: trader.user.username, password: trader.password });
    const ended = await socketsOn(second, traderOnSecond);
    const kept = await socketsOn(second, trader);
    expectSuccess(await logout(first.baseUrl, traderOnSecond.token));
    await expectEnded(ended);
    for (const [i, socket] of kept.entries()) await expectPong(socket, `kept-${i}`);

    // Disable through the first: the sockets on the second close, and the broker session the
    // second holds (connected there, its account watched) ends with them.
    const disabled = await createUser(first, admin.token);
    const disabledOnSecond = await session(second, { username: disabled.user.username, password: disabled.password });
    const sockets = await socketsOn(second, disabledOnSecond);
    const paper = expectSuccess<{ sessionId: string; accounts: string[] }>(await disabledOnSecond.api.post('/api/primary/sessions/connect', { url: 'sim://' }));
    expectSuccess(await disabledOnSecond.api.post(`/api/accounts/${paper.accounts[0]}/watch`, { sessionId: paper.sessionId }));
    const brokerSessionsOf = async (username: string) =>
      expectBody(await admin.api.get('/api/admin/positions'), AdminPositionsResponse).data.filter((entry) => entry.user === username);
    expect(await brokerSessionsOf(disabled.user.username)).toHaveLength(1);
    expectSuccess(await admin.api.put(`/api/admin/users/${disabled.user._id}`, { disabled: true }));
    await expectEnded(sockets);
    await pollUntil(
      'the broker session on the second process to end',
      async () => ((await brokerSessionsOf(disabled.user.username)).length === 0 ? true : null),
      ENDED_WITHIN_MS,
    );

    // Delete through the first.
    const deleted = await createUser(first, admin.token);
    const deletedOnSecond = await session(second, { username: deleted.user.username, password: deleted.password });
    const deletedSockets = await socketsOn(second, deletedOnSecond);
    expectSuccess(await admin.api.del(`/api/admin/users/${deleted.user._id}`));
    await expectEnded(deletedSockets);
    expect((await checkToken(second.baseUrl, deletedOnSecond.token)).status).toBe(401);
  }, 90_000);
});
