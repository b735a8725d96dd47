// The operator log at scale (issue 20): the CSV export of what the filters match, streamed
// page by page, and keyset pages that read an index in their order over 100,000 rows.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminLogsResponse, type OperatorLogItem } from '../../src/protocol/admin.js';
import { OPERATOR_ACTIONS } from '../../server/db/operatorLog.js';
import { CSV_TIME_COLUMN, csvTime, exportFileName } from '../../server/http/admin.js';
import { LOG_ACTIONS } from '../../src/features/admin/logActions.js';
import { csvRecords, parseCsv } from '../e2e/csv.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import { ADMIN, api, createUser, expectBody, expectErrorResponse, session, type Session } from './helpers.js';

const BIG = 100_000;
/** Rows of the rare user the big log also holds. */
const RARE = 300;
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
    expect(text.startsWith('\ufefffecha (Buenos Aires),usuario,id_usuario,accion,ip,detalle,id\r\n')).toBe(true);

    const records = csvRecords(text);
    const paged = await allPages(`&user=${user.user.username}`);
    expect(records.map((record) => record.id)).toEqual(paged.map((row) => row.id));
    expect(records.map((record) => [record[CSV_TIME_COLUMN], record.usuario, record.accion])).toEqual(
      paged.map((row) => [csvTime(Date.parse(row.at)), row.username, row.action]),
    );
    // The time in Buenos Aires, as a spreadsheet reads a date and time: 16:02:05 UTC is 13:02:05 there.
    expect(csvTime(Date.UTC(2026, 10, 27, 16, 2, 5, 700))).toBe('2026-11-27 13:02:05');
    expect(csvTime(Date.UTC(2026, 10, 28, 1, 30))).toBe('2026-11-27 22:30:00');
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

  it('exports no cell a spreadsheet reads as a formula, split at commas or at semicolons', async () => {
    // A failed sign-in writes the username as typed: Excel with ';' (Argentina's) would split
    // this at its semicolons and run =1+1.
    const typed = 'x;=1+1;';
    expectErrorResponse(await api(server, null).post('/api/login', { username: typed, password: 'no-es' }), 401);
    // Other starts of a field: after a comma or a line break, past spaces or a quote, each formula character.
    const tricky = ['a,=2+2', 'b;"=3+3"', 'c\n@SUM(1)', '-4', '+5', ' =6', '\t=7', 'd; \t8', 'e,\r=9', '"=10"'];
    for (const [index, username] of tricky.entries())
      await server.app.ctx.auth.log.add({ userId: null, username, action: 'login_failed', detail: { n: [index, -1] }, ip: `;=${index}` });

    const { text } = await exportCsv('?action=login_failed');
    const FORMULA = /^[ "]*[=+\-@\t\r]/;
    for (const separator of [',', ';'])
      for (const quotes of ['rfc', 'excel'] as const) {
        const fields = parseCsv(text, { separator, quotes }).flat();
        expect(fields.length, `${separator} ${quotes}`).toBeGreaterThan(tricky.length);
        expect(
          fields.filter((field) => FORMULA.test(field)),
          `fields that start a formula, read with '${separator}' (${quotes})`,
        ).toEqual([]);
      }
    // Read as written (commas), each cell is what was logged, a formula's start marked as text.
    const usernames = csvRecords(text).map((record) => record.usuario);
    expect(usernames).toContain("x;'=1+1;");
    expect(usernames).toEqual(
      expect.arrayContaining(["a,'=2+2", 'b;\'"=3+3"', "c\n'@SUM(1)", "'-4", "'+5", "' =6", "'\t=7", "d;' \t8", "e,'\r'=9", '\'"=10"']),
    );
  });

  it('filters by market days (Buenos Aires, UTC−3), not UTC days, in pages and in the export', async () => {
    const { db } = server.app.ctx;
    // Either side of the two midnights of 10 March 2026 in Buenos Aires (03:00 UTC).
    const times = {
      'tz-1': Date.UTC(2026, 2, 10, 2, 59, 59, 999),
      'tz-2': Date.UTC(2026, 2, 10, 3),
      'tz-3': Date.UTC(2026, 2, 11, 2, 59, 59, 999),
      'tz-4': Date.UTC(2026, 2, 11, 3),
    };
    await db
      .insertInto('operator_log')
      .values(Object.entries(times).map(([id, at]) => ({ id, at, user_id: null, username: 'tz-ana', action: 'login', detail: null, ip: null })))
      .execute();
    const ids = async (query: string) => (await allPages(`&user=tz-ana${query}`, 2)).map((row) => row.id);
    expect(await ids('&from=2026-03-10&to=2026-03-10')).toEqual(['tz-3', 'tz-2']);
    expect(await ids('&from=2026-03-10')).toEqual(['tz-4', 'tz-3', 'tz-2']);
    expect(await ids('&to=2026-03-09')).toEqual(['tz-1']);
    expect(await ids('&from=2026-03-11')).toEqual(['tz-4']);
    // A date-time without an offset is Buenos Aires time too; one with an offset is that instant.
    expect(await ids('&from=2026-03-10T23:59:59.999')).toEqual(['tz-4', 'tz-3']);
    expect(await ids('&to=2026-03-10T00:00')).toEqual(['tz-2', 'tz-1']);
    expect(await ids(`&from=${encodeURIComponent('2026-03-10T03:00:00Z')}&to=${encodeURIComponent('2026-03-10T23:59:59.999-03:00')}`)).toEqual([
      'tz-3',
      'tz-2',
    ]);

    const records = csvRecords((await exportCsv('?user=tz-ana&from=2026-03-10&to=2026-03-10')).text);
    expect(records.map((record) => [record.id, record[CSV_TIME_COLUMN]])).toEqual([
      ['tz-3', '2026-03-10 23:59:59'],
      ['tz-2', '2026-03-10 00:00:00'],
    ]);
  });

  it('refuses bad filters with 400, a user with 403 and nobody with 401', async () => {
    const bad = await admin.api.get('/api/admin/logs/export?from=2024-02-30');
    expect(expectErrorResponse(bad, 400)).toContain('from');
    expectErrorResponse(await admin.api.get('/api/admin/logs/export?limit=5'), 400);
    const user = await createUser(server, admin.token);
    expectErrorResponse(await user.api.get('/api/admin/logs/export'), 403);
    expectErrorResponse(await api(server, null).get('/api/admin/logs/export'), 401);
  });

  it('filters by user: the rows of that id, and of that username, each once, newest first, in pages and in the export', async () => {
    const { db } = server.app.ctx;
    const at = Date.UTC(2024, 5, 1);
    const row = (n: number, userId: string | null, username: string | null, action = 'login') => ({
      id: `pin-${n}`,
      at: at + n * 1000,
      user_id: userId,
      username,
      action,
      detail: null,
      ip: null,
    });
    await db
      .insertInto('operator_log')
      .values([
        row(1, 'id-pin-ana', 'pin-ana'),
        // The id under a former username.
        row(2, 'id-pin-ana', 'pin-ana-antes'),
        // The username without an id (a failed sign-in).
        row(3, null, 'pin-ana', 'login_failed'),
        row(4, 'id-pin-beto', 'pin-beto'),
        // Another user whose username is the id asked for: a username match.
        row(5, 'id-pin-beto', 'id-pin-ana'),
        // Both columns match: once.
        row(6, 'id-pin-ana', 'id-pin-ana'),
      ])
      .execute();
    const ids = async (user: string, limit: number) => (await allPages(`&user=${encodeURIComponent(user)}`, limit)).map((item) => item.id);
    for (const limit of [1, 2, 200]) {
      expect(await ids('id-pin-ana', limit), `by id, pages of ${limit}`).toEqual(['pin-6', 'pin-5', 'pin-2', 'pin-1']);
      expect(await ids('pin-ana', limit), `by username, pages of ${limit}`).toEqual(['pin-3', 'pin-1']);
      expect(await ids('pin-nadie', limit), `neither, pages of ${limit}`).toEqual([]);
    }
    expect(await ids('id-pin-beto', 200)).toEqual(['pin-5', 'pin-4']);
    expect((await allPages('&user=id-pin-ana&action=login')).map((item) => item.id)).toEqual(['pin-6', 'pin-5', 'pin-2', 'pin-1']);
    expect((await allPages('&user=pin-ana&action=login_failed')).map((item) => item.id)).toEqual(['pin-3']);
    expect(csvRecords((await exportCsv('?user=id-pin-ana')).text).map((record) => record.id)).toEqual(['pin-6', 'pin-5', 'pin-2', 'pin-1']);
  });

  describe('with 100,000 rows', () => {
    // 00:00 of 1 January 2025 in Buenos Aires: the rows (14 hours of them) are all that market day.
    const base = Date.UTC(2025, 0, 1, 3);
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
      // A rare user among them (300 rows in 2024, before every row above): the one a user filter
      // must find through the user indexes rather than by reading the whole log.
      const rare = Array.from({ length: RARE }, (_, n) => ({
        id: `rare-${String(n).padStart(3, '0')}`,
        at: Date.UTC(2024, 0, 1) + n * 60_000,
        user_id: n % 10 === 0 ? null : 'id-rara',
        username: 'rara',
        action: n % 10 === 0 ? 'login_failed' : 'login',
        detail: null,
        ip: '10.0.0.2',
      }));
      await db.insertInto('operator_log').values(rare).execute();
      await sql`ANALYZE operator_log`.execute(db);
    }, 120_000);

    /**
     * The plan of a page's query, as text, and whether it sorts rows it read from the table (a
     * sort of the two branches' pages of a user filter, at most two pages, is not that).
     */
    const plan = async (filter: { user?: string; action?: string }): Promise<{ text: string; sortsRows: boolean }> => {
      const { db } = server.app.ctx;
      const compiled = server.app.ctx.auth.log.listQuery(filter, 51, { at: base + 30_000_000, id: 'big-060000' }).compile();
      if (target.name === 'sqlite') {
        let index = 0;
        const text = compiled.sql.replace(/\?/g, () => literal(compiled.parameters[index++]));
        const { rows } = await sql.raw<{ id: number; parent: number; detail: string }>(`EXPLAIN QUERY PLAN ${text}`).execute(db);
        // A temporary B-tree beside a read of the table in one select sorts table rows; beside
        // the read of a branch (a co-routine of at most a page), it merges pages.
        const readsTable = (parent: number) => rows.some((row) => row.parent === parent && /^(SCAN|SEARCH) operator_log\b/.test(row.detail));
        return { text: rows.map((row) => row.detail).join('\n'), sortsRows: rows.some((row) => row.detail.includes('TEMP B-TREE') && readsTable(row.parent)) };
      }
      const client = db.withoutPlugins();
      const explained = await sql<{
        'QUERY PLAN': string;
      }>`EXPLAIN ${sql.raw(compiled.sql.replace(/\$(\d+)/g, (_, index: string) => literal(compiled.parameters[Number(index) - 1])))}`.execute(client);
      const text = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      // A Sort node (Merge Append merges sorted branches: its "Sort Key" is no sort).
      return { text, sortsRows: /(^|->\s+)(Incremental )?Sort\s+\(/m.test(text) };
    };

    it('reads an index in the page order, with no sort, unfiltered and by action', async () => {
      // SQLite: the (at, id) index unfiltered, migration 0005's (action, at, id) for an action.
      const expected: [{ action?: string }, string][] = [
        [{}, 'operator_log_at'],
        [{ action: 'visor_update' }, 'operator_log_action_at'],
      ];
      for (const [filter, index] of expected) {
        const { text } = await plan(filter);
        const what = `${JSON.stringify(filter)}: ${text}`;
        if (target.name === 'sqlite') {
          expect(text, what).toContain(`INDEX ${index} `);
          expect(text, what).not.toContain('TEMP B-TREE');
        } else {
          expect(text, what).toMatch(/Index Scan/);
          expect(text, what).not.toMatch(/Sort/);
        }
      }
    });

    it('filters by user through an index in the page order per branch, the id and the username, and sorts no matches', async () => {
      const cases: [{ user: string; action?: string }, boolean][] = [
        // A frequent user (a fifth of the log): any index in the page order will do.
        [{ user: 'carla' }, false],
        [{ user: 'carla', action: 'login' }, false],
        // A rare one: each branch reads its own user index, (user_id, at, id) and (username, at, id).
        [{ user: 'id-rara' }, true],
        [{ user: 'rara' }, true],
      ];
      for (const [filter, userIndexes] of cases) {
        const { text, sortsRows } = await plan(filter);
        const what = `${JSON.stringify(filter)}: ${text}`;
        expect(sortsRows, what).toBe(false);
        if (target.name === 'sqlite') {
          expect(text, what).toMatch(/USING (COVERING )?INDEX operator_log_/);
          expect(text, what).not.toMatch(/^SCAN operator_log$/m);
          expect(text, what).not.toContain('MULTI-INDEX OR');
        } else {
          expect(text, what).toMatch(/Index Scan/);
          expect(text, what).not.toMatch(/Seq Scan|Bitmap/);
        }
        if (userIndexes) {
          expect(text, what).toContain('operator_log_user_id_at');
          expect(text, what).toContain('operator_log_username_at');
        }
      }
      // And they find the rows: the id's, and the username's (its failed sign-ins too).
      expect((await allPages('&user=id-rara')).map((row) => row.id)).toHaveLength(RARE - RARE / 10);
      expect((await allPages('&user=rara', 51)).map((row) => row.id)).toEqual(
        Array.from({ length: RARE }, (_, n) => `rare-${String(n).padStart(3, '0')}`).reverse(),
      );
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
