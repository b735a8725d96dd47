// `npm run test:stress`: `npm test` while two busy loops hold both cores, as on a machine shared
// with other work. A test that waits a fixed time shorter than its work, or times the machine,
// fails here first. The loops run at the tests' own priority (another tenant's job on the same
// footing) and end with the run, also when it is interrupted.
import { spawn, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const loops = Number(process.env.STRESS_LOOPS ?? 2);
const busy = Array.from({ length: loops }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stop = () => {
  for (const child of busy) child.kill('SIGKILL');
};
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stop();
    process.exit(130);
  });
}

console.log(`test:stress: ${loops} busy loops on ${cpus().length} cores, then npm test`);
const result = spawnSync('npm', ['test'], { cwd: root, stdio: 'inherit' });
stop();
process.exit(result.status ?? 1);
