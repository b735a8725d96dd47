// A real server process (server/main.ts, as `npm start` runs it) on a free port, for tests
// that need more than one process (Redis) or to kill one. Resolves once it says where it runs.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  baseUrl: string;
  /** ws://127.0.0.1:<port><socketPath> */
  wsUrl(socketPath: string): string;
  child: ChildProcess;
}

/**
 * Starts server/main.ts with `env` over this process's environment, on 127.0.0.1 and a free
 * port; or `compiled`, the server as scripts/build-server.mjs built it (what `npm start` runs).
 */
export function startServerProcess(env: Record<string, string>, compiled?: string): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, compiled ? ['--enable-source-maps', compiled] : ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      // USER_REQUESTS: the tests call as fast as a script, not at a person's pace (userRequests.test.ts
      // holds a server to the budget). FEED_LOCK_TTL_MS: under the whole suite's load an event loop
      // stalls past the default's 1.5 s and the feeds would move between processes mid-test
      // (bench:takeover measures the default).
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        USER_REQUESTS: '1000000',
        REFUSAL_PAUSE_MS: '0',
        FEED_LOCK_TTL_MS: '5000',
        ...env,
      },
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (match) resolve({ baseUrl: `http://127.0.0.1:${match[1]}`, wsUrl: (socketPath) => `ws://127.0.0.1:${match[1]}${socketPath}`, child });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before it started:\n${output}`)));
  });
}
