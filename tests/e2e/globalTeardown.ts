// After every spec: the servers of the specs' own (ownServer.ts) still running, because a spec
// failed or timed out before it stopped its server, are killed with their process groups.
import { readdirSync, rmSync } from 'node:fs';

export default function globalTeardown(): void {
  const dir = process.env.E2E_SERVERS_DIR;
  if (!dir) return;
  let left: string[] = [];
  try {
    left = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of left) {
    const group = Number(name);
    if (!Number.isInteger(group) || group <= 0) continue;
    try {
      process.kill(-group, 'SIGKILL');
      console.log(`global teardown: stopped a spec's server left running (process group ${group})`);
    } catch {
      // Gone already.
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
