// `npm test`: type-check, lint (ESLint with the layer rules, then Prettier's check), unit and
// API tests (Vitest), build, end-to-end tests in Debian's Chromium (Playwright). Every stage
// runs even when an earlier one failed, so one run shows everything; the last line counts the
// tests: "tests: N passed, N failed".
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, '.test-output');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const failures = [];
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) failures.push(`${name} (exit ${result.status ?? result.signal})`);
  return result.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function ensureChromium() {
  if (existsSync(chromium)) return true;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`\n${chromium} is missing: installing Debian's chromium package`);
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  if (existsSync(chromium)) return true;
  failures.push(`end-to-end (no browser at ${chromium}: apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return false;
}

run('type-check', 'npm', ['run', '--silent', 'typecheck']);
run('lint', 'npm', ['run', '--silent', 'lint']);

const vitestJson = path.join(out, 'vitest.json');
run('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
const vitest = readJson(vitestJson);
if (vitest) {
  totals.passed += vitest.numPassedTests ?? 0;
  totals.failed += vitest.numFailedTests ?? 0;
  totals.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
}

if (run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']) && ensureChromium()) {
  const playwrightJson = path.join(out, 'playwright.json');
  run('end-to-end tests', 'npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
    CHROMIUM_PATH: chromium,
  });
  const stats = readJson(playwrightJson)?.stats;
  if (stats) {
    totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    totals.failed += stats.unexpected ?? 0;
    totals.skipped += stats.skipped ?? 0;
  }
}

console.log('');
if (failures.length > 0) console.log(`Failed stages: ${failures.join('; ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failures.length > 0 ? 1 : 0);
