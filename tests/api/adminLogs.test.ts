// The operator log at scale (issue 20): the CSV export of what the filters match, streamed
// page by page, and keyset pages that read an index in their order over 100,000 rows.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminLogsResponse, type OperatorLogItem } from '../../src/protocol/admin.js';
import { OPERATOR_ACTIONS } from '../../server/db/operatorLog.js';
import { exportFileName } from '../../server/http/admin.js';
import { LOG_ACTIONS } from '../../src/features/admin/logActions.js';
import { csvRecords } from '../e2e/csv.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, api, createUser, expectBody, expectErrorResponse, session, type Session } from './helpers.js';

const BIG = 100_000;
/** The actions the big log cycles through, and the users. */
const ACTIONS = ['login', 'visor_update', 'tree_save', 'logout'] as const;
const USERS = ['ana', 'beto', 'carla', 'dario', 'eva'];

it("names every action the server logs in the log page's filter", () => {
  expect(Object.keys(LOG_ACTIONS).sort()).toEqual([...OPERATOR_ACTIONS].sort());
});

describe.each(databaseTargets())('operator log export and paging on $name', (target) => {
  let server: TestServer;
  let admin: Session;
  beforeAll(async () => {
    server = await startServer(target);
    admin = await session(server, ADMIN);
  });
  afterAll(async () => {
    await server?.close();
  });

  const allPages = async (query: string, limit = 200): Promise<OperatorLogItem[]> => {
    const rows: OperatorLogItem[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = expectBody(await admin.api.get(`/api/admin/logs?limit=${limit}${query}${suffix}`), AdminLogsResponse);
      rows.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return rows;
  };
  const exportCsv = async (query = '') => {
    const response = await fetch(`${server.baseUrl}/api/admin/logs/export${query}`, { headers: { authorization: `Bearer ${admin.token}` } });
    const bytes = new Uint8Array(await response.arrayBuffer());
    // Kept apart: fetch's text() would drop the byte-order mark.
    return { response, bom: [...bytes.slice(0, 3)], text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
  };

  it('exports what the filters match as CSV, newest first, named by the day, without passwords', async () => {
    const user = await createUser(server, admin.token, { password: 'secreto-de-prueba' });
    await admin.api.put(`/api/admin/users/${user.user._id}`, { password: 'otro-secreto-123' });
    // Cells a spreadsheet would misread: commas, quotes, line breaks, a formula.
    await server.app.ctx.auth.log.add({
      userId: user.user._id,
      username: user.user.username,
      action: 'visor_create',
      detail: { title: 'Dólar, "MEP"\ny =1+1' },
      ip: '=cmd|calc',
    });

    const { response, text, bom } = await exportCsv(`?user=${user.user.username}`);
    expect(bom).toEqual([0xef, 0xbb, 0xbf]);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${exportFileName(server.clock.now())}"`);
    expect(exportFileName(Date.UTC(2026, 10, 26, 12))).toBe('logs-operadores-2026-11-26.csv');
    // Buenos Aires is UTC-3: 01:00 UTC is still the day before there.
    expect(exportFileName(Date.UTC(2026, 10, 26, 1))).toBe('logs-operadores-2026-11-25.csv');
    expect(text.startsWith('\ufefffecha,usuario,id_usuario,accion,ip,detalle,id\r\n')).toBe(true);

    const records = csvRecords(text);
    const paged = await allPages(`&user=${user.user.username}`);
    expect(records.map((record) => record.id)).toEqual(paged.map((row) => row.id));
    expect(records.map((record) => [record.fecha, record.usuario, record.accion])).toEqual(paged.map((row) => [row.at, row.username, row.action]));
    const tricky = records.find((record) => record.accion === 'visor_create')!;
    expect(JSON.parse(tricky.detalle!)).toEqual({ title: 'Dólar, "MEP"\ny =1+1' });
    expect(tricky.ip).toBe("'=cmd|calc");
    // The admin's changes of the user are logged under the admin (they did them).
    expect(records.map((record) => record.accion).sort()).toEqual(['login', 'visor_create']);
    const everything = (await exportCsv()).text;
    expect(
      csvRecords(everything)
        .filter((record) => (record.accion ?? '').startsWith('admin_user_'))
        .map((record) => record.accion)
        .sort(),
    ).toEqual(['admin_user_create', 'admin_user_update']);
    expect(everything).not.toContain('secreto');

    // Action and dates filter as the log does.
    const logins = csvRecords((await exportCsv(`?user=${user.user.username}&action=login`)).text);
    expect(logins.map((record) => record.id)).toEqual(paged.filter((row) => row.action === 'login').map((row) => row.id));
    const future = new Date(server.clock.now() + 86_400_000).toISOString();
    expect(csvRecords((await exportCsv(`?from=${encodeURIComponent(future)}`)).text)).toEqual([]);
  });

  it('refuses bad filters with 400, a user with 403 and nobody with 401', async () => {
    const bad = await admin.api.get('/api/admin/logs/export?from=2024-02-30');
    expect(expectErrorResponse(bad, 400)).toContain('from');
    expectErrorResponse(await admin.api.get('/api/admin/logs/export?limit=5'), 400);
    const user = await createUser(server, admin.token);
    expectErrorResponse(await user.api.get('/api/admin/logs/export'), 403);
    expectErrorResponse(await api(server, null).get('/api/admin/logs/export'), 401);
  });

  describe('with 100,000 rows', () => {
    const base = Date.UTC(2025, 0, 1);
    beforeAll(async () => {
      const { db } = server.app.ctx;
      const detail = JSON.stringify({ note: 'x'.repeat(300) });
      for (let start = 0; start < BIG; start += 1000) {
        const rows = Array.from({ length: 1000 }, (_, offset) => {
          const n = start + offset;
          // Rows come in pairs with the same time: the cursor's id breaks the tie.
          const at = base + Math.floor(n / 2) * 1000;
          return {
            id: `big-${String(n).padStart(6, '0')}`,
            at,
            user_id: null,
            username: USERS[n % USERS.length]!,
            action: ACTIONS[n % ACTIONS.length]!,
            detail,
            ip: '10.0.0.1',
          };
        });
        await db.insertInto('operator_log').values(rows).execute();
      }
      await sql`ANALYZE operator_log`.execute(db);
    }, 120_000);

    const plan = async (filter: { user?: string; action?: string }) => {
      const { db } = server.app.ctx;
      const compiled = server.app.ctx.auth.log.listQuery(filter, 51, { at: base + 30_000_000, id: 'big-060000' }).compile();
      if (target.name === 'sqlite') {
        let index = 0;
        const text = compiled.sql.replace(/\?/g, () => literal(compiled.parameters[index++]));
        const rows = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`).execute(db);
        return rows.rows.map((row) => row.detail).join('\n');
      }
      const client = db.withoutPlugins();
      const explained = await sql<{
        'QUERY PLAN': string;
      }>`EXPLAIN ${sql.raw(compiled.sql.replace(/\$(\d+)/g, (_, index: string) => literal(compiled.parameters[Number(index) - 1])))}`.execute(client);
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    };

    it('reads an index in the page order, with no sort, unfiltered, by action and by user', async () => {
      // SQLite: the (at, id) index unfiltered, migration 0005's (action, at, id) for an action.
      const expected: [{ user?: string; action?: string }, string | null][] = [
        [{}, 'operator_log_at'],
        [{ action: 'visor_update' }, 'operator_log_action_at'],
        [{ user: 'carla', action: 'login' }, 'operator_log_action_at'],
        // A frequent user: the page order's index, filtered (a rare one may take the user indexes).
        [{ user: 'carla' }, null],
      ];
      for (const [filter, index] of expected) {
        const text = await plan(filter);
        const what = `${JSON.stringify(filter)}: ${text}`;
        if (target.name === 'sqlite') {
          expect(text, what).toMatch(/USING (COVERING )?INDEX operator_log_/);
          if (index) expect(text, what).toContain(`INDEX ${index} `);
          expect(text, what).not.toContain('TEMP B-TREE');
        } else {
          expect(text, what).toMatch(/Index Scan/);
          expect(text, what).not.toMatch(/Sort/);
        }
      }
    });

    it('pages a filter through every matching row, newest first, none skipped or repeated', async () => {
      const rows = await allPages('&action=tree_save&user=carla&from=2025-01-01');
      // n % 4 === 2 and n % 5 === 2: n ≡ 2 (mod 20).
      expect(rows).toHaveLength(BIG / 20);
      expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
      expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => b.localeCompare(a)));
      expect(rows.every((row) => row.action === 'tree_save' && row.username === 'carla')).toBe(true);

      // The first pages of everything, tied times included.
      const first = await allPages('&action=visor_update&to=2025-12-31', 200);
      expect(first).toHaveLength(BIG / 4);
    }, 120_000);

    it('streams the whole export: the first bytes arrive while most pages are still unread', async () => {
      const { log } = server.app.ctx.auth;
      const list = log.list;
      let pagesRead = 0;
      log.list = async (...args) => {
        pagesRead += 1;
        return list(...args);
      };
      try {
        const response = await fetch(`${server.baseUrl}/api/admin/logs/export?from=2025-01-01&to=2025-12-31`, {
          headers: { authorization: `Bearer ${admin.token}` },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-length')).toBeNull();
        expect(response.headers.get('transfer-encoding')).toBe('chunked');
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        const first = await reader.read();
        // 100 pages of 1,000 rows; the server has read only what the client's buffers hold.
        expect(pagesRead).toBeLessThan(BIG / 1000);
        let text = decoder.decode(first.value, { stream: true });
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
        text += decoder.decode();
        const records = csvRecords(text);
        expect(records).toHaveLength(BIG);
        expect(records[0]!.id).toBe(`big-${String(BIG - 1).padStart(6, '0')}`);
        expect(records.at(-1)!.id).toBe('big-000000');
        expect(pagesRead).toBe(BIG / 1000 + 1);
      } finally {
        log.list = list;
      }
    }, 120_000);
  });
});

/** A parameter written into the SQL text, for EXPLAIN (PostgreSQL cannot EXPLAIN with bound parameters). */
function literal(value: unknown): string {
  return typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
}
