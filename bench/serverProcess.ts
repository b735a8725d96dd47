// The real server as a child process, as `npm start` runs it (server/main.ts, here through tsx),
// on a port of its own choosing, and what /proc says of it. For the benchmarks that need nothing
// more of it than to start it, read its output and stop it (soak.ts, http.ts, fanout.ts); a
// peer server a benchmark compares with (bench/peer/) is started the same way, by its script.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ, the unit of /proc/<pid>/stat times

export interface BenchServer {
  child: ChildProcess;
  pid: number;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** SIGTERM (the graceful stop), SIGKILL past `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  env: Record<string, string>;
  /** The script to run, from the repository's root: server/main.ts unless another server is measured (it prints the same `running at` line). */
  script?: string;
  /** Node's own flags, before the server's script (`--cpu-prof`, `--inspect=…`). */
  nodeArgs?: string[];
  /** Every chunk the server writes after it started, stdout and stderr. */
  onOutput?: (text: string) => void;
  /** What it wrote until it started (the inspector's address, with --inspect). */
  onStartup?: (text: string) => void;
}

/** Starts the server with `env` over this process's; resolves once it says where it listens. */
export function startServer({ env, script = 'server/main.ts', nodeArgs = [], onOutput = () => {}, onStartup = () => {} }: StartOptions): Promise<BenchServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { cwd: root, env: { ...process.env, ...env } });
    let output = '';
    let started = false;
    const keep = (chunk: Buffer) => {
      if (started) return onOutput(chunk.toString());
      output += chunk.toString();
      const match = /running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (!match) return;
      started = true;
      onStartup(output);
      resolve({ child, pid: child.pid!, baseUrl: `http://127.0.0.1:${match[1]}`, stop: (graceMs) => stopChild(child, graceMs) });
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('exit', (code, signal) => {
      if (!started) reject(new Error(`server exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
}

function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** User and system CPU seconds the process has used. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND; // utime + stime
}

/** A line of /proc/<pid>/status in MB: VmRSS (resident now) or VmHWM (its peak). */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}
