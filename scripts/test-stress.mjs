// `npm run test:stress`: `npm test` while two busy loops hold both cores, as on a machine shared
// with other work. A test that waits a fixed time shorter than its work, or times the machine,
// fails here first. The loops run at the tests' own priority (another tenant's job on the same
// footing) and end with the run, also when it is interrupted.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const loops = Number(process.env.STRESS_LOOPS ?? 2);
// Each loop also ends by itself once this script is gone (killed without a chance to stop them).
const loop = `const parent = ${process.pid}; for (let i = 1; ; i++) if ((i & 0xffffff) === 0) try { process.kill(parent, 0); } catch { process.exit(0); }`;
const busy = Array.from({ length: loops }, () => spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }));
const stop = () => {
  for (const child of busy) child.kill('SIGKILL');
};
process.on('exit', stop);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    stop();
    process.exit(code);
  });
}

console.log(`test:stress: ${loops} busy loops on ${cpus().length} cores, then npm test`);
// Asynchronous, so a signal to this script reaches its handlers while the tests run.
const tests = spawn('npm', ['test'], { cwd: root, stdio: 'inherit' });
tests.on('exit', (code) => {
  stop();
  process.exit(code ?? 1);
});
