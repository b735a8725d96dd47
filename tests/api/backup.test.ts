// npm run backup during writes, then npm run restore: every visor whose creation was
// acknowledged before the backup began is in the restored database. PostgreSQL: the command
// says how (pg_dump) instead.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { session, type Session } from './helpers.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';
import { newVisor } from './workspace.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'visores-backup-'));
const servers: ServerProcess[] = [];

/** Runs the backup CLI (as `npm run backup`/`restore` do) with `env` for its settings. */
function cli(args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return run(process.execPath, ['--import', 'tsx', 'server/cli/backup.ts', ...args], { cwd: root, env: { ...inherited, ...env } });
}

async function start(dataDir: string): Promise<ServerProcess> {
  // The writers create visores as fast as the server answers, past the default quota on a slow day.
  const server = await startServerProcess({ DATA_DIR: dataDir, STATIC_DIR: path.join(work, 'no-client'), MAX_VISORES_PER_USER: '100000' });
  servers.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  if (server.child.exitCode != null || server.child.signalCode != null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode == null && server.child.signalCode == null) server.child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** Whether the visor is in the server's database (its owner reads it). */
async function exists(who: Session, id: string): Promise<boolean> {
  const response = await who.api.get(`/api/visores/${id}/get`);
  if (response.status !== 200 && response.status !== 404 && response.status !== 410) throw new Error(`GET ${id}: ${response.status} ${response.text}`);
  return response.status === 200;
}

describe('backup and restore of the SQLite database', () => {
  // Two server starts, a CLI run each way and a read of every visor: minutes on a loaded machine.
  it('backs up while visores are written and restores every one acknowledged before the backup began', async () => {
    const dataDir = path.join(work, 'data');
    const server = await start(dataDir);
    const writer = await session(server);

    const acknowledged: { id: string; at: number }[] = [];
    let stopWriting = false;
    let failure: unknown = null;
    const write = async () => {
      try {
        for (let n = 0; !stopWriting; n += 1) {
          const id = await newVisor(writer, { title: `Escrito ${n}` });
          acknowledged.push({ id, at: Date.now() });
        }
      } catch (error) {
        failure ??= error;
        stopWriting = true;
      }
    };
    const writers = Array.from({ length: 4 }, write);
    /** Until `count` writes are acknowledged (a writer's failure fails the test at once). */
    const acknowledgedAtLeast = async (count: number) => {
      while (acknowledged.length < count) {
        if (failure) throw failure;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // Some writes land before, some during, some after the backup.
    await acknowledgedAtLeast(20);
    const backupFile = path.join(work, 'visores-backup.sqlite');
    const began = Date.now();
    const { stdout } = await cli(['backup', backupFile], { DATA_DIR: dataDir });
    const countAtEnd = acknowledged.length;
    await acknowledgedAtLeast(countAtEnd + 10);
    stopWriting = true;
    await Promise.all(writers);
    if (failure) throw failure;
    expect(stdout).toContain(backupFile);
    await stop(server);

    // Into a new DATA_DIR, as on a new machine.
    const restoredDir = path.join(work, 'restored');
    const restored = await cli(['restore', backupFile], { DATA_DIR: restoredDir });
    expect(restored.stdout).toContain('restored');
    const second = await start(restoredDir);
    const reader = await session(second);
    const before = acknowledged.filter((write) => write.at <= began);
    expect(before.length).toBeGreaterThanOrEqual(20);
    const missing: string[] = [];
    for (const { id } of before) if (!(await exists(reader, id))) missing.push(id);
    expect(missing).toEqual([]);
    // The writes after it are not there (it is the backup's moment, not a copy of the end).
    const after = acknowledged.slice(countAtEnd);
    for (const { id } of after) expect(await exists(reader, id)).toBe(false);
    await stop(second);
  }, 120_000);

  it('refuses what is not a backup, and says how to back up PostgreSQL', async () => {
    const notADatabase = path.join(work, 'not-a-backup.sqlite');
    writeFileSync(notADatabase, 'hola');
    await expect(cli(['restore', notADatabase], { DATA_DIR: path.join(work, 'other') })).rejects.toMatchObject({ code: 2 });
    await expect(cli(['backup'], { DATA_DIR: path.join(work, 'other'), DATABASE_URL: 'postgres://u@127.0.0.1:5432/x' })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('pg_dump'),
    });
  });
});
