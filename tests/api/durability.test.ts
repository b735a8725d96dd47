// What the server acknowledged survives a kill -9: writers create visores and save sections into
// them as fast as the server answers, the server process is killed with SIGKILL in the middle,
// started again on the same database, and every acknowledged write is there; the restarted
// server answers without a 5xx. SQLite (a file in DATA_DIR) and PostgreSQL (a schema of this
// run) when TEST_DATABASE_URL is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Section } from '../../src/protocol/workspace.js';
import { session, type Session } from './helpers.js';
import { testSchemaUrl } from './pgSchemas.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';
import { SECTIONS, newVisor, readVisor } from './workspace.js';

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || null;
const work = mkdtempSync(path.join(tmpdir(), 'visores-durability-'));
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const server of servers) if (server.child.exitCode == null && server.child.signalCode == null) server.child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

const FORMULA = SECTIONS.find((section) => section.type === 'formula')!;
/** Writes acknowledged before the kill: enough to fall in the middle of the stream, few enough for a loaded machine. */
const KILL_AFTER = 120;
const WRITERS = 8;

interface Acknowledged {
  visorId: string;
  /** The sections a save of it was acknowledged with, when one was. */
  sections?: Section[];
}

const targets = [{ name: 'sqlite' }, ...(postgresUrl ? [{ name: 'postgres' }] : [])];

describe.each(targets)('acknowledged writes across a kill -9 on $name', ({ name }) => {
  it('keeps every acknowledged creation and section save, and the restarted server answers them', async () => {
    const env: Record<string, string> = {
      DATA_DIR: path.join(work, name),
      STATIC_DIR: path.join(work, 'no-client'),
      // The writers create visores as fast as the server answers, past the default quota on a fast day.
      MAX_VISORES_PER_USER: '100000',
      ...(name === 'postgres' ? { DATABASE_URL: (await testSchemaUrl(postgresUrl!)).databaseUrl } : {}),
    };
    const first = await startServerProcess(env);
    servers.push(first);
    const writer = await session(first);

    const acknowledged = new Map<string, Acknowledged>();
    let killed = false;
    let failure: unknown = null;
    const write = async (w: number) => {
      for (let n = 0; !killed; n += 1) {
        try {
          const visorId = await newVisor(writer, { title: `Escritor ${w}, ${n}` });
          acknowledged.set(visorId, { visorId });
          const sections = [{ ...FORMULA, id: `f-${w}-${n}`, title: `Guardado ${w}, ${n}` }];
          const saved = await writer.api.put(`/api/visores/${visorId}/update_secciones`, { secciones: sections });
          if (saved.status !== 200) throw new Error(`save: ${saved.status} ${saved.text}`);
          acknowledged.set(visorId, { visorId, sections });
        } catch (error) {
          // After the kill a write gets no answer: not acknowledged, nothing to check.
          if (!killed) failure ??= error;
          return;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => write(w));
    while (acknowledged.size < KILL_AFTER && !failure) await new Promise((resolve) => setTimeout(resolve, 10));
    if (failure) throw failure;
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    killed = true;
    first.child.kill('SIGKILL');
    await exited;
    await Promise.all(writers);

    const second = await startServerProcess(env);
    servers.push(second);
    const reader: Session = await session(second);
    const lost: string[] = [];
    for (const { visorId, sections } of acknowledged.values()) {
      const response = await reader.api.get(`/api/visores/${visorId}/get`);
      expect(response.status, response.text).toBeLessThan(500);
      if (response.status !== 200) {
        lost.push(`${visorId}: ${response.status}`);
        continue;
      }
      if (sections) {
        const visor = await readVisor(reader, visorId);
        if (!isDeepStrictEqual(visor.secciones, sections)) lost.push(`${visorId}: sections ${JSON.stringify(visor.secciones)}`);
      }
    }
    expect(lost).toEqual([]);
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
    // The restarted server takes writes again.
    expect(await newVisor(reader, { title: 'Después del reinicio' })).toBeTruthy();
    second.child.kill('SIGTERM');
  }, 120_000);
});
