// Boots the real entry point (server/main.ts) as `npm start` does, in a child process.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'visores-startup-'));
  dirs.push(dir);
  return dir;
}

/** Runs main.ts until it prints `until` (then stops it) or exits by itself. */
function runMain(env: Record<string, string>, until?: RegExp): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', STATIC_DIR: tempDir(), ...env },
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until?.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('server start', () => {
  it('starts on an empty SQLite file, prints the URL and the demo accounts, and stops cleanly', async () => {
    const { code, output } = await runMain({ DATA_DIR: tempDir() }, /admin \/ admin1234/);
    expect(output).toMatch(/Visores is running at http:\/\/127\.0\.0\.1:[1-9]\d*\//);
    expect(output).toContain('demo / demo1234');
    expect(code).toBe(0);
  });

  it('stops with a non-zero exit when a migration fails', async () => {
    const dataDir = tempDir();
    // A users table that is not ours makes migration 0001 fail.
    const sqlite = new SqliteDatabase(path.join(dataDir, 'visores.sqlite'));
    sqlite.exec('CREATE TABLE users (id integer primary key)');
    sqlite.close();

    const { code, output } = await runMain({ DATA_DIR: dataDir });
    expect(code).not.toBe(0);
    expect(output).toContain('Migration 0001_users_and_sessions failed');
    expect(output).not.toContain('Visores is running');
  });

  it('refuses a malformed setting with a non-zero exit', async () => {
    const { code, output } = await runMain({ DATA_DIR: tempDir(), SESSION_IDLE_MINUTES: 'soon' });
    expect(code).not.toBe(0);
    expect(output).toContain('SESSION_IDLE_MINUTES');
  });

  it('refuses TRUST_PROXY=true, which trusted any X-Forwarded-For, naming what to set instead', async () => {
    const { code, output } = await runMain({ DATA_DIR: tempDir(), TRUST_PROXY: 'true' });
    expect(code).not.toBe(0);
    expect(output).toContain('TRUST_PROXY=true is no longer accepted');
    expect(output).toContain('TRUST_PROXY=1');
    expect(output).not.toContain('Visores is running');
  });
});
