// The limits that keep one user, or a stranger, from stalling the server for everyone (see
// docs/security.md): JSON nesting refused before it is parsed, on HTTP bodies (sign-in
// included) and socket messages; the body size; each user's storage quotas; lists without
// sections; the headers of encoded /api paths and of the framework's own answers.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { JSON_TOO_DEEP, MAX_JSON_DEPTH } from '../../src/protocol/jsonDepth.js';
import { SOCKET_LIMITS } from '../../src/protocol/socket.js';
import { DUPLICATE_SECTION, TOO_MANY_SECTIONS, VisorResponse, type Section } from '../../src/protocol/workspace.js';
import type { StorageQuotas } from '../../server/config.js';
import { QUOTA_MESSAGES, visorBytes } from '../../server/workspace/service.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  createUser,
  expectBody,
  expectErrorResponse,
  expectPong,
  expectSuccess,
  nextMessage,
  openAuthenticatedSocket,
  openSocket,
  request,
  session,
  waitForClose,
  type Session,
} from './helpers.js';
import { SECTIONS, listVisores, newVisor, readVisor } from './workspace.js';

const ONE_MB = 1024 * 1024;
const lists = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** `{"key":[[[…]]]}`: the shape of the probe's sign-in and socket messages. */
const deepField = (key: string, depth: number, extra = '') => `{${extra}"${key}":${lists(depth - 1)}}`;

/** Bytes of a section as the server stores and measures it: its JSON in UTF-8. */
const sectionBytes = (section: Section) => Buffer.byteLength(JSON.stringify(section));

/** A quote board of at least `bytes` bytes (symbol rows of 100 characters), with the id and title given. */
function boardOf(id: string, bytes: number, title = `Tablero ${id}`): Section {
  const row = { kind: 'symbol' as const, symbol: `${id}-`.padEnd(100, 'X') };
  const rows = Array.from({ length: Math.ceil(bytes / Buffer.byteLength(JSON.stringify(row))) }, () => row);
  return { id, type: 'quotes', title, layout: { x: 0, y: 0, w: 6, h: 4 }, config: { rows, columns: ['last'] } };
}

describe.each(databaseTargets())('limits on $name', (target) => {
  let server: TestServer;
  let demo: Session;
  beforeAll(async () => {
    server = await startServer(target);
    demo = await session(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('JSON nesting on HTTP bodies', () => {
    it('refuses sign-in (no account needed) with a body nested past the limit: 400 with the depth message, 1 MB of it included', async () => {
      for (const raw of [deepField('username', MAX_JSON_DEPTH + 1), deepField('username', 500_000)]) {
        expect(raw.length).toBeLessThanOrEqual(ONE_MB);
        const response = await request(server.baseUrl, 'POST', '/api/login', { raw });
        expect(expectErrorResponse(response, 400)).toBe(JSON_TOO_DEEP);
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
    });

    it('answers a body exactly at the limit as any other (parsed, then judged by the route)', async () => {
      const raw = deepField('username', MAX_JSON_DEPTH, '"password":"x",');
      expect(expectErrorResponse(await request(server.baseUrl, 'POST', '/api/login', { raw }), 400)).not.toBe(JSON_TOO_DEEP);
      const saved = await demo.api.put(`/api/profile`, undefined, { raw: `{"firstName":"Demo","lastName":"Usuario","x":${lists(MAX_JSON_DEPTH - 1)}}` });
      expect(expectErrorResponse(saved, 400)).not.toBe(JSON_TOO_DEEP);
    });

    it('refuses deep bodies of signed-in writes, objects and brackets inside strings told apart', async () => {
      const deepObjects = '{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1);
      expect(expectErrorResponse(await demo.api.post(`/api/visores/${demo.user._id}/new`, undefined, { raw: deepObjects }), 400)).toBe(JSON_TOO_DEEP);
      // Brackets inside a string are text: this title is taken as it is.
      const title = '[[[[' + '{'.repeat(150) + '\\"';
      const created = await demo.api.post(`/api/visores/${demo.user._id}/new`, { title });
      expect(expectSuccess<{ data: { visor: { title: string } } }>(created).data.visor.title).toBe(title);
    });

    it('answers a deep body after the refusal pause, reading none of the rest meanwhile', async () => {
      const pauseMs = 300;
      const held = await startServer(target, { refusalPauseMs: pauseMs });
      try {
        for (const raw of [deepField('username', MAX_JSON_DEPTH + 1), deepField('username', 500_000)]) {
          const sent = performance.now();
          const response = await request(held.baseUrl, 'POST', '/api/login', { raw });
          // A timer never fires early; the 1 ms is performance.now()'s rounding against the timer's.
          expect(performance.now() - sent).toBeGreaterThanOrEqual(pauseMs - 1);
          expect(expectErrorResponse(response, 400)).toBe(JSON_TOO_DEEP);
        }
      } finally {
        await held.close();
      }
    });

    it('still refuses a body over 1 MB with 413, whatever its depth', async () => {
      const flat = JSON.stringify({ username: 'x'.repeat(ONE_MB), password: 'y' });
      expectErrorResponse(await request(server.baseUrl, 'POST', '/api/login', { raw: flat }), 413);
      expectErrorResponse(await request(server.baseUrl, 'POST', '/api/login', { raw: deepField('username', ONE_MB) }), 413);
    });
  });

  describe('JSON nesting on socket messages', () => {
    it.each(['/ws/market', '/ws/positions'])(
      '%s answers a deep message at once with the depth error, counts it as a strike and stays usable until five',
      async (path) => {
        const socket = await openAuthenticatedSocket(server.wsUrl(path), demo.token);
        // The probe's message: an action of 32,700 levels in 64 KB (String() of it overflowed the stack).
        const probe = deepField('action', 32_700);
        expect(Buffer.byteLength(probe)).toBeLessThanOrEqual(SOCKET_LIMITS.maxMessageBytes);
        for (let strike = 1; strike < SOCKET_LIMITS.strikesToClose; strike++) {
          socket.send(strike % 2 ? probe : deepField('action', MAX_JSON_DEPTH + 1));
          expect(await nextMessage(socket)).toEqual({ event: 'error', message: JSON_TOO_DEEP });
          await expectPong(socket, `after-${strike}`);
        }
        socket.send(probe);
        expect(await nextMessage(socket)).toMatchObject({ event: 'error', message: expect.stringContaining(JSON_TOO_DEEP) });
        expect((await waitForClose(socket)).code).toBe(1008);
      },
    );

    it('refuses a deep message before auth as a broken limit too, and the socket may still authenticate', async () => {
      const socket = await openSocket(server.wsUrl('/ws/market'));
      socket.send(deepField('action', 1000));
      expect(await nextMessage(socket)).toEqual({ event: 'error', message: JSON_TOO_DEEP });
      socket.send(JSON.stringify({ action: 'auth', token: demo.token }));
      expect(await nextMessage(socket)).toMatchObject({ event: 'authenticated' });
      socket.close();
    });

    it('names an unknown action only when it is short text', async () => {
      const socket = await openAuthenticatedSocket(server.wsUrl('/ws/positions'), demo.token);
      const unknown = async (action: unknown) => {
        socket.send(JSON.stringify({ action }));
        return ((await nextMessage(socket)) as { message: string }).message;
      };
      expect(await unknown('bailar')).toBe('Acción desconocida: bailar');
      for (const action of [lists(MAX_JSON_DEPTH - 2), { a: [1, 2] }, 'x'.repeat(60_000), 12]) {
        const message = await unknown(action);
        expect(message).toMatch(/^Acción desconocida: /);
        expect(message.length).toBeLessThan(100);
      }
      expect(socket.readyState).toBe(WebSocket.OPEN);
      socket.close();
    });
  });

  it("lists a user's visores without their sections, however big they are; each one is read whole apart", async () => {
    const owner = await createUser(server, (await session(server, ADMIN)).token);
    const ids = await Promise.all([1, 2, 3].map((i) => newVisor(owner, { title: `Grande ${i}` })));
    const big = [0, 1, 2, 3, 4].map((i) => boardOf(`b${i}`, 55 * 1024));
    for (const id of ids) expectSuccess(await owner.api.put(`/api/visores/${id}/update_secciones`, { secciones: big }));
    const list = await owner.api.get(`/api/visores/${owner.user._id}`);
    expect(list.text.length).toBeLessThan(2_000);
    const listed = await listVisores(owner);
    expect(listed.map((visor) => visor.visor_id).sort()).toEqual([...ids].sort());
    expect(listed.some((visor) => 'secciones' in visor)).toBe(false);
    for (const id of ids) expect((await readVisor(owner, id)).secciones).toEqual(big);
  });

  it('refuses duplicate section ids in a visor with 400 naming the id, and writes nothing', async () => {
    const id = await newVisor(demo, { title: 'Duplicadas' });
    const [first, second] = SECTIONS as [Section, Section];
    const response = await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: [first, second, { ...second, id: first.id }] });
    expect(expectErrorResponse(response, 400)).toBe(DUPLICATE_SECTION(first.id));
    expect((await readVisor(demo, id)).secciones).toEqual([]);
    expectSuccess(await demo.api.put(`/api/visores/${id}/update_secciones`, { secciones: [first, second] }));
  });
});

describe.each(databaseTargets())('storage quotas on $name', (target) => {
  const QUOTAS: StorageQuotas = { visoresPerUser: 5, sectionsPerVisor: 8, sectionBytes: 8 * 1024, userBytes: 64 * 1024 };
  let server: TestServer;
  let admin: Session;
  beforeAll(async () => {
    server = await startServer(target, { quotas: { ...QUOTAS } });
    admin = await session(server, ADMIN);
  });
  afterAll(async () => {
    await server?.close();
  });
  const fresh = () => createUser(server, admin.token);
  const save = (who: Session, visorId: string, secciones: Section[]) => who.api.put(`/api/visores/${visorId}/update_secciones`, { secciones });

  it('refuses a create or a clone past the visores per user with 409, and takes one again after a delete', async () => {
    const user = await fresh();
    const ids: string[] = [];
    for (let i = 1; i < QUOTAS.visoresPerUser; i++) ids.push(await newVisor(user, { title: `Visor ${i}` }));
    const replayed = 'a'.repeat(32);
    ids.push(await newVisor(user, { title: 'Con su id', visor_id: replayed }));
    const create = await user.api.post(`/api/visores/${user.user._id}/new`, { title: 'Uno más' });
    expect(expectErrorResponse(create, 409)).toBe(QUOTA_MESSAGES.tooManyVisores(QUOTAS.visoresPerUser));
    expect(expectErrorResponse(await user.api.post(`/api/visores/${user.user._id}/${ids[0]}/clonar`), 409)).toBe(
      QUOTA_MESSAGES.tooManyVisores(QUOTAS.visoresPerUser),
    );
    expect(await listVisores(user)).toHaveLength(QUOTAS.visoresPerUser);
    // A create sent again (its answer lost) still answers the visor it made; a new id is refused.
    expect(await newVisor(user, { title: 'Con su id', visor_id: replayed })).toBe(replayed);
    expectErrorResponse(await user.api.post(`/api/visores/${user.user._id}/new`, { title: 'Otro id', visor_id: 'b'.repeat(32) }), 409);
    expectSuccess(await user.api.del(`/api/visores/${ids[0]}`));
    await newVisor(user, { title: 'Después de borrar' });
  });

  it('counts parallel creates one at a time: exactly the quota lands', async () => {
    const user = await fresh();
    const answers = await Promise.all(
      Array.from({ length: QUOTAS.visoresPerUser * 3 }, (_, i) =>
        user.api.post(`/api/visores/${user.user._id}/new`, { title: `Paralelo ${i}`, folder_id: null }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(QUOTAS.visoresPerUser);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expectErrorResponse(refused, 409);
    expect(await listVisores(user)).toHaveLength(QUOTAS.visoresPerUser);
  });

  it('refuses more sections than the quota in a visor with 409', async () => {
    const user = await fresh();
    const id = await newVisor(user);
    const sections = Array.from({ length: QUOTAS.sectionsPerVisor + 1 }, (_, i) => ({ ...SECTIONS[1]!, id: `s${i}` }));
    expect(expectErrorResponse(await save(user, id, sections), 409)).toBe(TOO_MANY_SECTIONS(QUOTAS.sectionsPerVisor));
    expect((await readVisor(user, id)).secciones).toEqual([]);
    expectSuccess(await save(user, id, sections.slice(0, QUOTAS.sectionsPerVisor)));
  });

  it('refuses a section over the bytes per section with 413 naming it, and writes nothing', async () => {
    const user = await fresh();
    const id = await newVisor(user);
    const big = boardOf('grande', QUOTAS.sectionBytes + 1, 'Tablero enorme');
    expect(sectionBytes(big)).toBeGreaterThan(QUOTAS.sectionBytes);
    expect(expectErrorResponse(await save(user, id, [SECTIONS[0]!, big]), 413)).toBe(
      QUOTA_MESSAGES.sectionTooLarge('Tablero enorme', sectionBytes(big), QUOTAS.sectionBytes),
    );
    expect((await readVisor(user, id)).secciones).toEqual([]);
    const fits = boardOf('justo', QUOTAS.sectionBytes - 200);
    expect(sectionBytes(fits)).toBeLessThanOrEqual(QUOTAS.sectionBytes);
    expectSuccess(await save(user, id, [fits]));
  });

  it('refuses a write past the bytes per user with 413, parallel saves included, and never one that shrinks', async () => {
    const user = await fresh();
    const ids = await Promise.all([1, 2, 3, 4, 5].map((i) => newVisor(user, { title: `Lleno ${i}` })));
    // 4 sections of ~7 KB: ~28 KB a visor, so two fit in 64 KB and a third does not.
    const fill = (visorId: string) =>
      save(
        user,
        visorId,
        [0, 1, 2, 3].map((i) => boardOf(`${visorId.slice(0, 6)}${i}`, 7 * 1024)),
      );
    const answers = await Promise.all(ids.map(fill));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(expectErrorResponse(refused, 413)).toMatch(/^Sus visores ocuparían [\d,]+ MB y el máximo por usuario es 0,1 MB/);
    }
    const stored = await Promise.all(ids.map((visorId) => readVisor(user, visorId)));
    const total = stored.reduce((sum, visor) => sum + visorBytes({ ...visor, secciones: JSON.stringify(visor.secciones) }), 0);
    expect(total).toBeLessThanOrEqual(QUOTAS.userBytes);
    const full = stored.find((visor) => visor.secciones.length > 0)!;
    const empty = stored.find((visor) => visor.secciones.length === 0)!;
    expectErrorResponse(await save(user, empty.visor_id, [boardOf('mas', 7 * 1024), boardOf('otra', 7 * 1024)]), 413);
    // A quota lowered below what the user has: what shrinks or stays is still saved, what grows is not.
    const quotas = server.config.quotas;
    const before = quotas.userBytes;
    quotas.userBytes = 16 * 1024;
    try {
      const kept = expectBody(await save(user, full.visor_id, full.secciones), VisorResponse).data;
      expectSuccess(await save(user, full.visor_id, kept.secciones.slice(1)));
      expectErrorResponse(await save(user, full.visor_id, kept.secciones), 413);
    } finally {
      quotas.userBytes = before;
    }
  });

  it('refuses a save whose declared body cannot fit in what the user has left before reading it; a body that may fit is read', async () => {
    const user = await fresh();
    const [filled, other] = await Promise.all([newVisor(user, { title: 'Casi lleno' }), newVisor(user, { title: 'Otro' })]);
    expectSuccess(
      await save(
        user,
        filled,
        [0, 1, 2, 3, 4, 5, 6].map((i) => boardOf(`lleno${i}`, 7 * 1024)),
      ),
    );
    const stored = await readVisor(user, filled);
    const others = visorBytes({ ...stored, secciones: JSON.stringify(stored.secciones) });
    const length = 300 * 1024;
    // Only the head and the first kilobyte are sent, and the socket stays open: a server that
    // read the body would still be waiting for the rest.
    const head =
      `PUT /api/visores/${other}/update_secciones HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"secciones":[` +
      ' '.repeat(1024);
    const answer = await answerBeforeBodyEnds(server.baseUrl, head);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ status: 'error', message: QUOTA_MESSAGES.userFull(others + length, QUOTAS.userBytes) });
    // Within the room (and its allowance for a JSON wrapper): read, and refused for what it says.
    const small = await request(server.baseUrl, 'PUT', `/api/visores/${other}/update_secciones`, {
      raw: `{"secciones":[${' '.repeat(70 * 1024)}`,
      token: user.token,
    });
    expect(expectErrorResponse(small, 400)).toBe('El cuerpo de la solicitud no es JSON válido');
  });
});

/** Sends `bytes` on a socket left open and resolves with the first answer's status and body. */
function answerBeforeBodyEnds(baseUrl: string, bytes: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(bytes));
    const timer = setTimeout(() => socket.destroy(new Error('No answer in 15 s: the server is waiting for the body')), 15_000);
    socket.on('close', () => clearTimeout(timer));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const headEnd = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
      if (headEnd < 0 || length == null || Buffer.byteLength(text.slice(headEnd + 4)) < Number(length)) return;
      socket.destroy();
      resolve({ status: Number(text.slice(9, 12)), body: text.slice(headEnd + 4) });
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`The server closed without a whole answer: ${JSON.stringify(text.slice(0, 200))}`)));
  });
}
