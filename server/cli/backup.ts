// Online backup and restore of the SQLite database, for deployments on the embedded default:
//   npm run backup [-- <file>]     a consistent copy while the server runs and writes
//   npm run restore -- <file>      puts a backup back (stop the server first)
// A plain copy of the file is not a backup: the last writes live in the WAL beside it, and a
// copy taken during a write is torn. SQLite's backup API (better-sqlite3's db.backup) copies
// a consistent snapshot page by page while other connections go on writing. PostgreSQL has its
// own tools: the command says which.
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../config.js';

class UsageError extends Error {}

const USAGE = `Usage:
  npm run backup [-- <file>]    online backup of the SQLite database (default: DATA_DIR/backups/visores-<time>.sqlite)
  npm run restore -- <file>     replaces the SQLite database with a backup (stop the server first)`;

const POSTGRES_HOW = `DATABASE_URL names PostgreSQL: back it up and restore it with PostgreSQL's tools, e.g.
  pg_dump --format=custom --file=visores.dump "$DATABASE_URL"
  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" visores.dump
(pg_dump reads one consistent snapshot while the server keeps writing.)`;

/** The tables every database of ours has; a file without them is not a backup of Visores. */
const REQUIRED_TABLES = ['users', 'sessions', 'visores'];

function stamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** Checks `file` is a whole SQLite database of ours; returns its user count. */
function verify(file: string): number {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    let integrity: unknown;
    try {
      integrity = db.pragma('integrity_check', { simple: true });
    } catch (error) {
      throw new UsageError(`${file} is not a SQLite database: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (integrity !== 'ok') throw new UsageError(`${file} is damaged: ${String(integrity)}`);
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
    const missing = REQUIRED_TABLES.filter((table) => !tables.has(table));
    if (missing.length > 0) throw new UsageError(`${file} is not a Visores database (no ${missing.join(', ')})`);
    return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function backup(source: string, target: string): Promise<void> {
  if (!fs.existsSync(source)) throw new UsageError(`No database at ${source} (DATA_DIR)`);
  if (fs.existsSync(target)) throw new UsageError(`${target} exists: name another file`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target);
  } finally {
    db.close();
  }
  const users = verify(target);
  console.log(`Backup of ${source} written to ${target} (${users} users)`);
}

async function restore(backupFile: string, target: string): Promise<void> {
  if (!fs.existsSync(backupFile)) throw new UsageError(`No backup at ${backupFile}`);
  const users = verify(backupFile);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // Copied through the backup API too: the target's WAL and its readers stay consistent, and
  // a target that is open elsewhere is waited for (busy) rather than torn.
  const db = new SqliteDatabase(backupFile, { readonly: true, fileMustExist: true });
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
  console.log(`${target} restored from ${backupFile} (${users} users)`);
}

async function run(command: string | undefined, argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) throw new UsageError(USAGE);
  const config = loadConfig();
  if (config.databaseUrl) throw new UsageError(POSTGRES_HOW);
  const database = path.join(config.dataDir, 'visores.sqlite');
  const [file] = argv;
  if (command === 'backup') return backup(database, path.resolve(file ?? path.join(config.dataDir, 'backups', `visores-${stamp(new Date())}.sqlite`)));
  if (command === 'restore' && file) return restore(path.resolve(file), database);
  throw new UsageError(USAGE);
}

run(process.argv[2], process.argv.slice(3)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(error instanceof UsageError ? 2 : 1);
});
