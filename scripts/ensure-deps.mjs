// Installs the npm dependencies when they are missing or older than package-lock.json,
// so `npm start` and `npm test` work on a fresh clone. Uses only Node built-ins.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const lockFile = path.join(root, 'package-lock.json');
const stamp = path.join(root, 'node_modules', '.visores-installed');

const fingerprint = createHash('sha256')
  .update(readFileSync(path.join(root, 'package.json')))
  .update(existsSync(lockFile) ? readFileSync(lockFile) : '')
  .digest('hex');

const installed = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null;
if (installed !== fingerprint) {
  const args = existsSync(lockFile) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  console.log(`Installing dependencies (npm ${args[0]})…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`npm ${args[0]} failed with exit code ${result.status}`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, `${fingerprint}\n`);
}
