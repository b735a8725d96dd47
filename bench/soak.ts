// npm run bench:soak [-- --minutes 30 --sockets 300 --symbols-per-socket 20 --sample-seconds 30 --plot docs/soak.svg]
//
// Does the server hold its memory over time? Starts the real server (SQLite, the simulated market
// at its own rate, as `npm start` runs it) and keeps it busy as a trading floor would for the
// given minutes: market sockets each subscribed to random symbols of the catalogue, one of them
// closed and another opened each second (every socket is replaced every few minutes), a
// trickle of writes (a visor's sections saved every 2 s, the tree and the visor read back) and
// a sign-in and sign-out each minute. Every sample it reads the server's resident memory
// (/proc) and its JavaScript heap after a full collection (through the inspector: what the
// heap holds, not what it has not collected yet), and counts the updates the sockets got. It
// prints the samples, the slope of both over the last 20 minutes (or the last two thirds of a
// shorter run) in MB per minute, and every error the server logged; with --plot, an SVG of the
// curve. Target: slope of each at most 1 MB/min, no error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { seededRandom } from '../server/market/random.js';
import { SECTIONS } from '../tests/sampleSections.js';
import { referenceJobMs } from './machineSpeed.js';
import { memoryMb, startServer, type BenchServer } from './serverProcess.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    sockets: { type: 'string', default: '300' },
    'symbols-per-socket': { type: 'string', default: '20' },
    'sample-seconds': { type: 'string', default: '30' },
    plot: { type: 'string' },
  },
});
const MINUTES = Number(values.minutes);
const SOCKETS = Number(values.sockets);
const PER_SOCKET = Number(values['symbols-per-socket']);
const SAMPLE_MS = Number(values['sample-seconds']) * 1000;
const TARGET_MB_PER_MIN = 1;

interface Sample {
  minute: number;
  rssMb: number;
  heapMb: number;
  updatesPerSecond: number;
  openSockets: number;
}

/** The server's inspector: its heap's used size after a full collection. */
async function inspector(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.on('message', (raw: Buffer) => {
    const message = JSON.parse(String(raw)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const call = (method: string) =>
    new Promise<unknown>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    async heapMb(): Promise<number> {
      await call('HeapProfiler.collectGarbage');
      const { usedSize } = (await call('Runtime.getHeapUsage')) as { usedSize: number };
      return usedSize / 1048576;
    },
    close: () => socket.close(),
  };
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const sxy = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const sxx = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/** A small SVG of RSS and heap over the run's minutes. */
function plot(samples: Sample[], title: string): string {
  const width = 640;
  const height = 260;
  const left = 48;
  const bottom = 32;
  const top = 28;
  const right = 16;
  const maxX = Math.max(1, samples.at(-1)!.minute);
  const maxY = Math.ceil(Math.max(...samples.map((sample) => sample.rssMb)) / 50) * 50;
  const x = (minute: number) => left + (minute / maxX) * (width - left - right);
  const y = (mb: number) => height - bottom - (mb / maxY) * (height - bottom - top);
  const line = (pick: (sample: Sample) => number) => samples.map((sample) => `${x(sample.minute).toFixed(1)},${y(pick(sample)).toFixed(1)}`).join(' ');
  const yTicks = Array.from({ length: 5 }, (_, i) => (maxY / 4) * i);
  const xTicks = Array.from({ length: 7 }, (_, i) => Math.round((maxX / 6) * i));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="16" font-size="12">${title}</text>`,
    ...yTicks.map(
      (mb) =>
        `<line x1="${left}" x2="${width - right}" y1="${y(mb)}" y2="${y(mb)}" stroke="#ddd"/><text x="${left - 6}" y="${y(mb) + 4}" text-anchor="end">${mb}</text>`,
    ),
    ...xTicks.map((minute) => `<text x="${x(minute)}" y="${height - bottom + 16}" text-anchor="middle">${minute}</text>`),
    `<text x="${width - right}" y="${height - 4}" text-anchor="end">minutes</text>`,
    `<text x="4" y="${top - 8}">MB</text>`,
    `<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${line((sample) => sample.rssMb)}"/>`,
    `<polyline fill="none" stroke="#d62728" stroke-width="2" points="${line((sample) => sample.heapMb)}"/>`,
    `<text x="${width - right}" y="${top + 4}" text-anchor="end" fill="#1f77b4">resident (RSS)</text>`,
    `<text x="${width - right}" y="${top + 18}" text-anchor="end" fill="#d62728">JS heap after a full collection</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/** The server while it runs: stopped also when the bench fails, never left behind. */
let running: BenchServer | null = null;

async function main(): Promise<void> {
  console.log(
    `machine speed: reference job ${referenceJobMs().toFixed(0)} ms (best of 7; a fixed single-threaded V8 job in this Node process; lower is faster)`,
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-soak-'));
  let startup = '';
  const logged = { errors: [] as string[], warnings: 0 };
  let partial = '';
  const server = await startServer({
    env: {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-client'),
      LOG_LEVEL: 'warn',
      SEED_DEMO_USERS: 'true',
      SOCKETS_PER_USER: String(SOCKETS + 50),
    },
    nodeArgs: ['--inspect=127.0.0.1:0'],
    onStartup: (text) => (startup += text),
    onOutput: (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const level = /"level":(\d+)/.exec(line)?.[1];
        if (level && Number(level) >= 50) logged.errors.push(line.slice(0, 300));
        else if (level && Number(level) >= 40) logged.warnings += 1;
      }
    },
  });
  running = server;
  const heap = await inspector(/Debugger listening on (ws:\/\/\S+)/.exec(startup)![1]!);
  const base = `${server.baseUrl}/api`;
  const failures: string[] = [];
  const request = async (method: string, route: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(base + route, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) failures.push(`${method} ${route}: ${response.status} ${text.slice(0, 120)}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const signIn = async () => (await request('POST', '/login', null, { username: 'demo', password: 'demo1234' })) as { token: string; user: { _id: string } };
  const { token, user } = await signIn();
  const instruments = (
    (await request('GET', '/visores/primary/instruments', token)) as { instruments: { instrumentId: { symbol: string } }[] }
  ).instruments.map((entry) => entry.instrumentId.symbol);
  const visorIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const { data } = (await request('POST', `/visores/${user._id}/new`, token, { title: `Soak ${i}` })) as { data: { id_visor: string } };
    if (!data) throw new Error(`could not make a visor: ${failures.join('; ')}`);
    visorIds.push(data.id_visor);
  }

  const random = seededRandom(11);
  let updates = 0;
  const sockets = new Set<WebSocket>();
  const open = () =>
    new Promise<void>((resolve) => {
      const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/ws/market`, { perMessageDeflate: false });
      sockets.add(socket);
      socket.on('open', () => socket.send(JSON.stringify({ action: 'auth', token })));
      socket.on('message', (raw: Buffer) => {
        const message = JSON.parse(String(raw)) as Record<string, unknown>;
        if (message.event === 'authenticated') {
          const wanted = new Set<string>();
          while (wanted.size < PER_SOCKET) wanted.add(instruments[Math.floor(random() * instruments.length)]!);
          for (const symbol of wanted) socket.send(JSON.stringify({ action: 'subscribe', symbol }));
          resolve();
        } else if (message.event === undefined) {
          updates += Object.keys(message).length;
        }
      });
      socket.on('close', () => {
        sockets.delete(socket);
        resolve();
      });
      socket.on('error', (error) => failures.push(`socket: ${error.message}`));
    });
  for (let i = 0; i < SOCKETS; i += 50) await Promise.all(Array.from({ length: Math.min(50, SOCKETS - i) }, open));
  console.log(`${sockets.size} market sockets open, ${PER_SOCKET} symbols each; ${MINUTES} minutes`);

  // One socket replaced each second, the oldest first.
  const churn = setInterval(() => {
    const oldest = sockets.values().next().value;
    oldest?.close();
    void open();
  }, 1000);
  // A save every 2 s, read back; a sign-in and sign-out each minute.
  let saves = 0;
  const writes = setInterval(() => {
    const id = visorIds[saves % visorIds.length]!;
    saves += 1;
    const secciones = SECTIONS.map((section) => ({ ...section, title: `${section.title} ${saves}` }));
    void (async () => {
      await request('PUT', `/visores/${id}/update_secciones`, token, { secciones });
      await request('GET', `/visores/${user._id}/folders`, token);
      await request('GET', `/visores/${id}/get`, token);
    })().catch((error: Error) => failures.push(`write: ${error.message}`));
  }, 2000);
  const sessions = setInterval(() => {
    void (async () => {
      const session = await signIn();
      await request('POST', '/logout', session.token);
    })().catch((error: Error) => failures.push(`sign-in: ${error.message}`));
  }, 60_000);

  const samples: Sample[] = [];
  const started = Date.now();
  let counted = { at: started, updates };
  const sample = async () => {
    const now = Date.now();
    const heapMb = await heap.heapMb();
    samples.push({
      minute: (now - started) / 60_000,
      rssMb: memoryMb(server.pid, 'VmRSS'),
      heapMb,
      // The first sample has no interval behind it.
      updatesPerSecond: samples.length === 0 ? 0 : ((updates - counted.updates) * 1000) / Math.max(1, now - counted.at),
      openSockets: sockets.size,
    });
    counted = { at: now, updates };
    const last = samples.at(-1)!;
    console.log(
      `${last.minute.toFixed(1).padStart(5)} min  RSS ${last.rssMb.toFixed(0).padStart(4)} MB  heap ${last.heapMb.toFixed(1).padStart(6)} MB  ${last.updatesPerSecond.toFixed(0).padStart(6)} updates/s  ${last.openSockets} sockets`,
    );
  };
  await sample();
  for (let round = 0; round < Math.round((MINUTES * 60_000) / SAMPLE_MS); round++) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    await sample();
  }
  clearInterval(churn);
  clearInterval(writes);
  clearInterval(sessions);
  for (const socket of sockets) socket.terminate();
  heap.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });

  const window = Math.min(20, (MINUTES * 2) / 3);
  const tail = samples.filter((entry) => entry.minute >= samples.at(-1)!.minute - window);
  const rssSlope = slope(tail.map((entry) => [entry.minute, entry.rssMb]));
  const heapSlope = slope(tail.map((entry) => [entry.minute, entry.heapMb]));
  console.log('');
  console.log(`saves ${saves}, failed requests or sockets ${failures.length}${failures.length ? `: ${[...new Set(failures)].slice(0, 5).join('; ')}` : ''}`);
  console.log(`server log: ${logged.errors.length} errors, ${logged.warnings} warnings`);
  for (const line of logged.errors.slice(0, 10)) console.log(`  ${line}`);
  const meets = (value: number) => (value <= TARGET_MB_PER_MIN ? 'meets' : 'MISSES');
  console.log(
    `slope over the last ${window.toFixed(0)} minutes: RSS ${rssSlope.toFixed(2)} MB/min (${meets(rssSlope)}), heap ${heapSlope.toFixed(2)} MB/min (${meets(heapSlope)}); target ≤ ${TARGET_MB_PER_MIN} MB/min and no error`,
  );
  if (values.plot) {
    const title = `bench:soak, ${SOCKETS} sockets, ${MINUTES} min: RSS ${rssSlope.toFixed(2)} MB/min, heap ${heapSlope.toFixed(2)} MB/min (last ${window.toFixed(0)} min)`;
    writeFileSync(values.plot, plot(samples, title));
    console.log(`plot: ${values.plot}`);
  }
  if (rssSlope > TARGET_MB_PER_MIN || heapSlope > TARGET_MB_PER_MIN || logged.errors.length > 0 || failures.length > 0) process.exitCode = 1;
}

main().catch(async (error: unknown) => {
  console.error(error);
  await running?.stop();
  process.exit(1);
});
