// A server process of the spec's own, for specs that kill and restart it (the shared one of
// playwright.config.ts must stay up). Runs the server in its own process group on a
// free port with its own DATA_DIR; restart() brings it back on the same port and data, so a
// browser's sessions and socket URL stay valid (with `env`, changed: another STATIC_DIR serves
// another build of the client at the same origin).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../fakes/netProxy';

export interface OwnServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Its DATA_DIR (the SQLite file is visores.sqlite there), for a spec that sets rows the API cannot. */
  dataDir: string;
  /** SIGKILL, no graceful close: sockets drop as in a crash. */
  kill(): Promise<void>;
  /** Starts it again (after kill or stop); `env` adds to or replaces the variables it started with. */
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/** Notes a server's process group (or forgets it once stopped) for the global teardown, which kills those left running. */
function noteGroup(pid: number | undefined, running: boolean): void {
  const dir = process.env.E2E_SERVERS_DIR;
  if (!dir || !pid) return;
  if (running) writeFileSync(path.join(dir, String(pid)), '');
  else rmSync(path.join(dir, String(pid)), { force: true });
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode != null) throw new Error(`The server exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not start in 60 s:\n${output()}`);
}

export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'visores-e2e-own-'));
  let child: ChildProcess | null = null;
  let currentEnv = env;

  const start = async () => {
    let output = '';
    // The server compiled once for the run (playwright.config.ts), as `npm start` runs it;
    // outside Playwright (bench:load), the sources through tsx.
    const compiled = process.env.E2E_SERVER_JS;
    const [command, args] = compiled ? [process.execPath, ['--enable-source-maps', compiled]] : [path.join('node_modules', '.bin', 'tsx'), ['server/main.ts']];
    const started = spawn(command, args, {
      // SIM_MARKET_TIME as the shared server's (playwright.config.ts): a session under way at any hour.
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        STATIC_DIR: 'dist',
        LOG_LEVEL: 'warn',
        SIM_MARKET_TIME: '11:30',
        ...currentEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child = started;
    noteGroup(started.pid, true);
    await waitUntilUp(`${url}/`, started, () => output);
  };

  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = null;
    if (!running?.pid || running.exitCode != null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // The whole group: tsx runs the server in a child process of its own.
    process.kill(-running.pid, signal);
    await exited;
    noteGroup(running.pid, false);
  };

  await start();
  return {
    url,
    dataDir,
    kill: () => end('SIGKILL'),
    restart: (next = {}) => {
      currentEnv = { ...currentEnv, ...next };
      return start();
    },
    stop: () => end('SIGTERM'),
  };
}
