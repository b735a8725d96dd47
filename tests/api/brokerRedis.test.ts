// Broker sessions past one machine (issue 4): two real server processes on one Redis and one
// database. A session connected on the first is watched, read, pushed and commanded through
// the second; other users get 404 on both; when the owner stops answering the second says so
// (503), and when it dies its sessions are gone (404) and a new one works on the survivor.
// Runs when TEST_REDIS_URL is set; on PostgreSQL (a schema of its own) when TEST_DATABASE_URL
// is set too, else on one SQLite file both processes open.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { Fill, PositionsPush } from '../../src/protocol/broker.js';
import {
  ADMIN,
  createUser,
  expectErrorResponse,
  expectSuccess,
  nextMessageWhere,
  openAuthenticatedSocket,
  pollUntil,
  positionsOf,
  sendJson,
  session,
} from './helpers.js';
import { testSchemaUrl } from './pgSchemas.js';
import { dropRedisKeys } from './redisKeys.js';
import { startServerProcess } from './serverProcess.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || null;
if (!redisUrl) console.log('Broker-on-Redis API tests skipped: TEST_REDIS_URL is not set');
else if (!postgresUrl) console.log('Broker-on-Redis API tests run on a shared SQLite file: TEST_DATABASE_URL is not set');

const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-broker-redis-'));
const children: ChildProcess[] = [];

interface Server {
  baseUrl: string;
  wsUrl: string;
  child: ChildProcess;
}

let databaseUrl: string | null = null;
async function sharedDatabaseUrl(): Promise<string | null> {
  if (!postgresUrl || databaseUrl) return databaseUrl;
  return (databaseUrl = (await testSchemaUrl(postgresUrl)).databaseUrl);
}

async function startProcess(): Promise<Server> {
  const database = await sharedDatabaseUrl();
  const started = await startServerProcess({
    DATA_DIR: dataDir,
    ...(database ? { DATABASE_URL: database } : {}),
    SIM_TICKS_PER_SECOND: '200',
    STATIC_DIR: path.join(dataDir, 'no-client'),
    REDIS_URL: redisUrl!,
    REDIS_PREFIX: prefix,
  });
  children.push(started.child);
  return { baseUrl: started.baseUrl, wsUrl: started.wsUrl('/ws/positions'), child: started.child };
}

afterAll(async () => {
  for (const child of children) if (child.exitCode == null && child.signalCode == null) child.kill('SIGKILL');
  if (redisUrl) {
    await dropRedisKeys(redisUrl, prefix);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const channelOf = (account: string) => `POS:primary:${account}`;

/** The snapshot once warmed up (202 until then). */
/** The next push of `channel` on the socket (other messages fail the test). */
async function nextPush(socket: WebSocket, channel: string): Promise<PositionsPush> {
  // A revaluation needs a trade of one of the account's instruments: about one a second in all,
  // as the market trades (a few seconds without any happen; 30 s is the limit of a stuck push).
  const { message, skipped } = await nextMessageWhere(socket, (m) => typeof m === 'object' && m != null && channel in m, 30_000);
  expect(skipped).toEqual([]);
  const push = (message as Record<string, PositionsPush>)[channel]!;
  expect(push).toMatchObject({ type: 'positions', etag: expect.any(String), as_of: expect.any(String) });
  return push;
}

describe.runIf(redisUrl)('broker sessions across two processes on Redis', () => {
  it('serves, pushes and commands a session of one process through the other, and handles its death', async () => {
    const first = await startProcess();
    const second = await startProcess();
    const adminOnFirst = await session(first, ADMIN);
    const adminOnSecond = await session(second, ADMIN);
    // One database: a user made through the first signs in on the second.
    const trader = await createUser(first, adminOnFirst.token);
    const traderOnSecond = await session(second, { username: trader.user.username, password: trader.password });
    const intruder = await createUser(second, adminOnSecond.token);
    const intruderOnFirst = await session(first, { username: intruder.user.username, password: intruder.password });

    // Connected and watched on the first process.
    const connected = expectSuccess<{ sessionId: string; accounts: string[] }>(await trader.api.post('/api/primary/sessions/connect', { url: 'sim://' }));
    const { sessionId } = connected;
    const account = connected.accounts[0]!;
    const channel = channelOf(account);
    expectSuccess(await trader.api.post(`/api/accounts/${account}/watch`, { sessionId }));

    // GET positions on the second process answers from the first one's snapshot.
    const onSecond = await positionsOf(traderOnSecond, account);
    expect(onSecond).toMatchObject({ account, broker: 'primary', etag: expect.any(String) });
    expect(onSecond.positions.length).toBeGreaterThan(0);

    // A positions socket on the second process gets the first one's pushes.
    const socket = await openAuthenticatedSocket(second.wsUrl, traderOnSecond.token);
    sendJson(socket, { action: 'subscribe', symbol: channel });
    expect((await nextMessageWhere(socket, (m) => typeof m === 'object' && m != null && 'event' in m)).message).toEqual({
      event: 'subscribed',
      symbol: channel,
    });
    // The market moves in real time here, so the paper account is revalued with new etags.
    const firstPush = await nextPush(socket, channel);
    const secondPush = await nextPush(socket, channel);
    expect(secondPush.etag).not.toBe(firstPush.etag);
    expect(secondPush.data?.account).toBe(account);
    // What GET answers on either process is what was pushed (retried past newer pushes).
    const pushed = new Map([firstPush, secondPush].map((push) => [push.etag, push]));
    for (const user of [trader, traderOnSecond]) {
      const { snapshot, push } = await pollUntil('GET positions equal to a push', async () => {
        const snapshot = await positionsOf(user, account);
        while (!pushed.has(snapshot.etag)) {
          const push = await nextPush(socket, channel);
          pushed.set(push.etag, push);
          if (Date.parse(push.as_of) > Date.parse(snapshot.as_of)) return null; // newer: read again
        }
        return { snapshot, push: pushed.get(snapshot.etag)! };
      });
      expect(push.data).toEqual(snapshot);
    }

    // The admin page of either process lists the session, with the second's subscriber.
    for (const admin of [adminOnFirst, adminOnSecond]) {
      const listed = expectSuccess<{ data: { sessionId: string; user: string; accounts: { account: string; watched: boolean; subscribers: number }[] }[] }>(
        await admin.api.get('/api/admin/positions'),
      );
      expect(listed.data.find((entry) => entry.sessionId === sessionId)).toMatchObject({
        user: trader.user.username,
        accounts: [expect.objectContaining({ account, watched: true, subscribers: 1 })],
      });
    }

    // watch-fills through the second process reaches the first, which owns the session.
    expectSuccess(await traderOnSecond.api.post(`/api/accounts/${account}/watch-fills`, { sessionId }));
    const fills = await pollUntil('fills on the second process', async () => {
      const response = await traderOnSecond.api.get(`/api/accounts/${account}/fills`);
      if (response.status === 202) return null;
      expect(response.status, response.text).toBe(200);
      return (response.body as { fills: Fill[] }).fills;
    });
    expect(Array.isArray(fills)).toBe(true);
    // And a first watch through the second process of a session of the first.
    const other = await createUser(first, adminOnFirst.token);
    const otherOnSecond = await session(second, { username: other.user.username, password: other.password });
    const otherConnected = expectSuccess<{ sessionId: string; accounts: string[] }>(await other.api.post('/api/primary/sessions/connect', { url: 'sim://' }));
    const otherAccount = otherConnected.accounts[0]!;
    expectErrorResponse(await otherOnSecond.api.get(`/api/accounts/${otherAccount}/positions`), 404);
    expectSuccess(await otherOnSecond.api.post(`/api/accounts/${otherAccount}/watch`, { sessionId: otherConnected.sessionId }));
    expect((await positionsOf(otherOnSecond, otherAccount)).account).toBe(otherAccount);
    expect((await positionsOf(other, otherAccount)).account).toBe(otherAccount);

    // Someone else is told the session and the account do not exist, on both processes.
    for (const user of [intruder, intruderOnFirst]) {
      expect(expectErrorResponse(await user.api.post(`/api/accounts/${account}/watch`, { sessionId }), 404)).toBe('La sesión de broker no existe');
      expect(expectErrorResponse(await user.api.post(`/api/accounts/${account}/watch-fills`, { sessionId }), 404)).toBe('La sesión de broker no existe');
      expect(expectErrorResponse(await user.api.get(`/api/accounts/${account}/positions`), 404)).toBe(`La cuenta ${account} no existe o no es suya`);
      expectErrorResponse(await user.api.get(`/api/accounts/${account}/fills`), 404);
    }
    const intruderSocket = await openAuthenticatedSocket(second.wsUrl, intruder.token);
    sendJson(intruderSocket, { action: 'subscribe', symbol: channel });
    expect((await nextMessageWhere(intruderSocket, () => true)).message).toEqual({
      event: 'error',
      symbol: channel,
      message: `La cuenta ${account} no está siendo observada: llame antes a /watch`,
    });
    intruderSocket.close();

    // The owner stops answering (paused): a command through the second process times out
    // with a clear message instead of hanging.
    first.child.kill('SIGSTOP');
    const stalled = await traderOnSecond.api.post(`/api/accounts/${account}/watch-fills`, { sessionId });
    expect(expectErrorResponse(stalled, 503)).toBe('El servidor que tiene la sesión de broker no respondió a tiempo; intente de nuevo');

    // The owner dies: its session no longer exists for the second process, which goes on.
    first.child.kill('SIGKILL');
    await new Promise((resolve) => (first.child.exitCode != null || first.child.signalCode != null ? resolve(null) : first.child.once('exit', resolve)));
    // Redis may take a moment to see the dead process's connection go: until then a command
    // times out (503); then the session is known to be gone.
    await pollUntil(
      'the session of the dead process to be gone',
      async () => {
        const response = await traderOnSecond.api.post(`/api/accounts/${account}/watch`, { sessionId });
        if (response.status === 503) return null;
        expect(expectErrorResponse(response, 404)).toBe('La sesión de broker no existe');
        return true;
      },
      20_000,
    );
    expectErrorResponse(await traderOnSecond.api.get(`/api/accounts/${account}/positions`), 404);
    // The other account's records lapse when no one renews them.
    await pollUntil(
      "the dead process's watched account to lapse",
      async () => ((await otherOnSecond.api.get(`/api/accounts/${otherAccount}/positions`)).status === 404 ? true : null),
      20_000,
    );
    const afterDeath = expectSuccess<{ data: { sessionId: string }[] }>(await adminOnSecond.api.get('/api/admin/positions'));
    expect(afterDeath.data.map((entry) => entry.sessionId)).not.toContain(sessionId);
    // The socket on the surviving process is told, once, that the account's session is gone;
    // pushes sent before the death may come first.
    const told = await nextMessageWhere(socket, (m) => typeof m === 'object' && m != null && 'event' in m);
    expect(told.message).toEqual({
      event: 'error',
      symbol: channel,
      message: `La sesión de broker de la cuenta ${account} terminó (el servidor que la tenía se detuvo): conecte una sesión nueva y observe la cuenta otra vez`,
    });
    for (const skipped of told.skipped) expect(Object.keys(skipped as object)).toEqual([channel]);
    sendJson(socket, { action: 'ping', requestId: 'still-open' });
    const pong = await nextMessageWhere(socket, (m) => typeof m === 'object' && m != null && 'event' in m);
    expect(pong.message).toMatchObject({ event: 'pong', requestId: 'still-open' });
    expect(pong.skipped).toEqual([]);

    // The client connects a new session, now on the surviving process, and it works: the
    // socket's subscription, kept, gets the new session's pushes without subscribing again.
    const again = expectSuccess<{ sessionId: string; accounts: string[] }>(await traderOnSecond.api.post('/api/primary/sessions/connect', { url: 'sim://' }));
    expect(again.accounts).toEqual([account]);
    expectSuccess(await traderOnSecond.api.post(`/api/accounts/${account}/watch`, { sessionId: again.sessionId }));
    expect((await positionsOf(traderOnSecond, account)).account).toBe(account);
    expect((await nextPush(socket, channel)).data?.account).toBe(account);
    socket.close();
  }, 90_000);
});
