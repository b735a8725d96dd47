// Every kind of write shows in the list of a user's visores at the next read, also one made
// through a second server on the same database (another process).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../server/app.js';
import type { VisorSummary } from '../../src/protocol/workspace.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, api, createUser, expectSuccess, session, type Session } from './helpers.js';
import { SECTIONS, leaf, listVisores, newVisor, readTree, saveTree } from './workspace.js';

describe.each(databaseTargets())('the list of visores on $name', (target) => {
  let server: TestServer;
  let other: BuiltApp;
  let otherUrl: string;
  let admin: Session;

  beforeAll(async () => {
    server = await startServer(target);
    // A second app on the same database (the same SQLite file or PostgreSQL schema): what
    // another process behind the same proxy would be.
    other = await buildApp(server.config, { now: server.clock.now });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    otherUrl = `http://127.0.0.1:${(other.app.server.address() as AddressInfo).port}`;
    admin = await session(server, ADMIN);
  });
  afterAll(async () => {
    await other?.app.close();
    await server?.close();
  });

  /** The user on the first server, and the same user's token used on the second. */
  async function twoProcesses(): Promise<{ here: Session; there: Session }> {
    const here = await createUser(server, admin.token);
    return { here, there: { ...here, api: api({ baseUrl: otherUrl }, here.token) } };
  }

  const byId = (list: VisorSummary[]) => new Map(list.map((visor) => [visor.visor_id, visor]));

  it('shows every change made through another process at the next read', async () => {
    const { here, there } = await twoProcesses();
    const first = await newVisor(here, { title: 'Primero' });
    expect((await listVisores(here)).map((visor) => visor.title)).toEqual(['Primero']);

    const steps: { what: string; write: () => Promise<unknown>; check: (list: Map<string, VisorSummary>) => void }[] = [
      {
        what: 'create',
        write: () => newVisor(there, { title: 'Segundo' }),
        check: (list) => expect([...list.values()].map((visor) => visor.title).sort()).toEqual(['Primero', 'Segundo']),
      },
      {
        what: 'rename',
        write: () => there.api.put(`/api/visores/${first}`, { title: 'Renombrado', emoji: '🧪', color: '#123456' }).then(expectSuccess),
        check: (list) => expect(list.get(first)).toMatchObject({ title: 'Renombrado', emoji: '🧪', color: '#123456' }),
      },
      {
        what: 'sections',
        write: () => there.api.put(`/api/visores/${first}/update_secciones`, { secciones: SECTIONS }).then(expectSuccess),
        check: (list) => expect(list.get(first)!.version).toBe(1),
      },
      {
        what: 'share',
        write: () => there.api.put(`/api/visores/${first}/check_option`, { option: 'public', value: true }).then(expectSuccess),
        check: (list) => expect(list.get(first)!.public).toBe(true),
      },
      {
        what: 'favourite',
        write: () => there.api.put(`/api/visores/${there.user._id}/${first}/fav`).then(expectSuccess),
        check: (list) => expect(list.get(first)!.fav).toBe(true),
      },
      {
        what: 'clone',
        write: () => there.api.post(`/api/visores/${there.user._id}/${first}/clonar`).then(expectSuccess),
        check: (list) => expect(list.size).toBe(3),
      },
      {
        what: 'delete',
        write: () => there.api.del(`/api/visores/${first}`).then(expectSuccess),
        check: (list) => expect(list.has(first)).toBe(false),
      },
    ];
    for (const step of steps) {
      await listVisores(here); // the copy of the list before the write
      await step.write();
      step.check(byId(await listVisores(here)));
      // Both processes answer the same list.
      expect(await listVisores(here), step.what).toEqual(await listVisores(there));
    }
  });

  it('shows the visores a tree save deleted, and the favourites it changed', async () => {
    const { here, there } = await twoProcesses();
    const kept = await newVisor(here, { title: 'Queda', folder_id: null });
    const dropped = await newVisor(here, { title: 'Se va', folder_id: null });
    expect((await listVisores(here)).length).toBe(2);
    const tree = await readTree(there);
    expectSuccess(await saveTree(there, [leaf(kept, { fav: true })], tree.version));
    const list = byId(await listVisores(here));
    expect([...list.keys()]).toEqual([kept]);
    expect(list.get(kept)!.fav).toBe(true);
    expect(list.has(dropped)).toBe(false);
  });
});
