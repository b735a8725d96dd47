// A rolling restart as an operator does one: two processes on one Redis and one database
// (PostgreSQL when TEST_DATABASE_URL is set, else one SQLite file) behind a load balancer of the
// test's own (tests/fakes/netProxy.ts), writers saving through it and market sockets watching
// through it; the first process is stopped with SIGTERM and started again on its port, then the
// second. Every process exits cleanly (0), no request is answered 5xx, every write the server
// acknowledged is there after, and every socket is live again after each restart, having
// reconnected as the data worker does after a 1012 (a quarter to one and a quarter seconds).
// The longest gap in ticks each socket saw is printed, not asserted (the machine's speed is
// not the test's to judge). Runs when TEST_REDIS_URL is set.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Section } from '../../src/protocol/workspace.js';
import { freePort, startBalancer, type Balancer } from '../fakes/netProxy.js';
import { pollUntil, session, type Session } from './helpers.js';
import { dropRedisKeys } from './redisKeys.js';
import { testSchemaUrl } from './pgSchemas.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';
import { SECTIONS, readVisor } from './workspace.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || null;
if (!redisUrl) console.log('Rolling restart test skipped: TEST_REDIS_URL is not set');

const prefix = `visores-test-${randomBytes(4).toString('hex')}:`;
const work = mkdtempSync(path.join(tmpdir(), 'visores-rolling-'));
const running = new Set<ServerProcess>();
const sockets = new Set<WebSocket>();
let balancer: Balancer | null = null;

afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  for (const server of running) if (server.child.exitCode == null && server.child.signalCode == null) server.child.kill('SIGKILL');
  await balancer?.close();
  if (redisUrl) {
    await dropRedisKeys(redisUrl, prefix);
  }
  rmSync(work, { recursive: true, force: true });
});

const FORMULA = SECTIONS.find((section) => section.type === 'formula')!;
const WRITERS = 4;
const WATCHERS = 3;
const SYMBOLS = ['ROFEX:DLR/SPOT', 'BYMA:AL30', 'BYMA:GGAL', 'BYMA:AL30D', 'BYMA:GD30'];

/** A market socket through the balancer that reconnects after a close, as the data worker does after a 1012. */
function watcher(url: string, token: string) {
  const ticks: number[] = [];
  const closes: number[] = [];
  let stopped = false;
  const open = () => {
    const socket = new WebSocket(url);
    sockets.add(socket);
    socket.on('open', () => socket.send(JSON.stringify({ action: 'auth', token })));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as Record<string, unknown> & { event?: string };
      if (message.event === 'authenticated') socket.send(JSON.stringify({ action: 'subscribe', symbols: SYMBOLS, requestId: 'w' }));
      else if (!message.event && !('requestId' in message)) ticks.push(Date.now());
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      sockets.delete(socket);
      closes.push(code);
      if (!stopped) setTimeout(open, 250 + Math.random() * 1000);
    });
  };
  open();
  return {
    ticks,
    closes,
    /** Resolves once `count` ticks arrived after `since`. */
    liveSince: (since: number, what: string, count = 3) => pollUntil(what, () => (ticks.filter((at) => at > since).length >= count ? true : null), 30_000),
    /** The longest time without a tick between `from` and `to`. */
    longestGap(from: number, to: number): number {
      let last = from;
      let longest = 0;
      for (const at of ticks) {
        if (at < from || at > to) continue;
        longest = Math.max(longest, at - last);
        last = at;
      }
      return Math.max(longest, to - last);
    },
    stop() {
      stopped = true;
    },
  };
}

describe.runIf(redisUrl)('a rolling restart of two processes behind a load balancer', () => {
  it('loses no acknowledged write, answers no 5xx, and every socket is live again after each restart', async () => {
    const database: Record<string, string> = postgresUrl ? { DATABASE_URL: (await testSchemaUrl(postgresUrl)).databaseUrl } : {};
    const ports = [await freePort(), await freePort()];
    const envOf = (port: number): Record<string, string> => ({
      ...database,
      PORT: String(port),
      DATA_DIR: path.join(work, 'data'),
      STATIC_DIR: path.join(work, 'no-client'),
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: prefix,
      SIM_TICKS_PER_SECOND: '400',
      MAX_VISORES_PER_USER: '100000',
    });
    const start = async (port: number) => {
      const server = await startServerProcess(envOf(port));
      running.add(server);
      return server;
    };
    // One after the other: the first migrates the database and takes the feeds.
    const processes = [await start(ports[0]!)];
    processes.push(await start(ports[1]!));
    balancer = await startBalancer(ports);
    const through = { baseUrl: balancer.url };

    const writer: Session = await session(through);
    const acknowledged = new Map<string, Section[] | null>();
    const failures = new Map<string, number>();
    const fivexx: string[] = [];
    let writing = true;
    const write = async (w: number) => {
      for (let n = 0; writing; n += 1) {
        try {
          const created = await writer.api.post(`/api/visores/${writer.user._id}/new`, { title: `Escritor ${w}, ${n}` });
          if (created.status !== 200) {
            if (created.status >= 500) fivexx.push(`${created.status} ${created.text}`);
            else failures.set(`create ${created.status}`, (failures.get(`create ${created.status}`) ?? 0) + 1);
            continue;
          }
          const visorId = (created.body as { data: { id_visor: string } }).data.id_visor;
          acknowledged.set(visorId, null);
          const sections = [{ ...FORMULA, id: `f-${w}-${n}`, title: `Guardado ${w}, ${n}` }];
          const saved = await writer.api.put(`/api/visores/${visorId}/update_secciones`, { secciones: sections });
          if (saved.status === 200) acknowledged.set(visorId, sections);
          else if (saved.status >= 500) fivexx.push(`${saved.status} ${saved.text}`);
          else failures.set(`save ${saved.status}`, (failures.get(`save ${saved.status}`) ?? 0) + 1);
        } catch (error) {
          // No answer (a connection closed under the request): not acknowledged, a client retries.
          const text = error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}` : String(error);
          failures.set(text.slice(0, 80), (failures.get(text.slice(0, 80)) ?? 0) + 1);
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => write(w));
    const watchers = Array.from({ length: WATCHERS }, () => watcher(`${balancer!.url.replace('http', 'ws')}/ws/market`, writer.token));
    const begun = Date.now();
    for (const [i, w] of watchers.entries()) await w.liveSince(begun, `socket ${i} live`);
    await pollUntil('writes acknowledged before the restarts', () => (acknowledged.size >= 20 ? true : null), 30_000);

    const gaps: number[][] = [];
    for (const index of [0, 1]) {
      const stopping = processes[index]!;
      const stoppedAt = Date.now();
      const acknowledgedBefore = acknowledged.size;
      stopping.child.kill('SIGTERM');
      const exitCode = await new Promise<number | null>((resolve) => stopping.child.once('exit', (code) => resolve(code)));
      running.delete(stopping);
      expect(exitCode, `process ${index} exits cleanly on SIGTERM`).toBe(0);
      processes[index] = await start(ports[index]!);
      const backAt = Date.now();
      for (const [i, w] of watchers.entries()) await w.liveSince(backAt, `socket ${i} live after process ${index} restarted`);
      await pollUntil(`writes acknowledged after process ${index} restarted`, () => (acknowledged.size >= acknowledgedBefore + 10 ? true : null), 30_000);
      gaps.push(watchers.map((w) => w.longestGap(stoppedAt, Date.now())));
    }
    writing = false;
    await Promise.all(writers);
    for (const w of watchers) w.stop();

    expect(fivexx).toEqual([]);
    // Every acknowledged write is there, read back through either process.
    for (const [visorId, sections] of acknowledged) {
      const visor = await readVisor(writer, visorId);
      if (sections) expect(isDeepStrictEqual(visor.secciones, sections), `sections of ${visorId}`).toBe(true);
    }
    console.log(
      `rolling restart: ${acknowledged.size} writes acknowledged, all there; requests without an answer ${JSON.stringify(Object.fromEntries(failures))}; ` +
        `longest gap in ticks per socket, first restart ${gaps[0]!.join(', ')} ms, second ${gaps[1]!.join(', ')} ms; ` +
        `socket closes ${watchers.map((w) => w.closes.join('/')).join(', ')}; connections per process ${JSON.stringify(Object.fromEntries(balancer.given()))}`,
    );
  }, 240_000);
});
