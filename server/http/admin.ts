import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MARKET_DAY_MS, MARKET_UTC_OFFSET, marketDayStart, marketIsoDate, marketIsoString } from '../../src/lib/marketTime.js';
import { CreateUserRequest, LogExportQuery, LogQuery, UpdateUserRequest, type AdminUser, type OperatorLogItem } from '../../src/protocol/admin.js';
import { jsonTooDeep } from '../../src/protocol/jsonDepth.js';
import type { LogFilter, OperatorAction, OperatorLogRepo } from '../db/operatorLog.js';
import type { OperatorLogRow, UserRow } from '../db/schema.js';
import type { AppContext } from '../context.js';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../errors.js';
import { clientAddress } from './clientAddress.js';
import { parseBody } from './errors.js';

export const ADMIN_MESSAGES = {
  adminOnly: 'Solo los administradores pueden hacer esto',
  userNotFound: 'El usuario no existe',
  lastAdmin: 'No se puede quitar ni deshabilitar al último administrador',
  taken: (username: string) => `El usuario ${username} ya existe`,
  badDate: (field: string) => `${field} no es una fecha válida (AAAA-MM-DD o fecha y hora ISO)`,
  badCursor: 'El cursor no es válido',
} as const;

/** Refuses (403) anyone but an admin: an onRequest hook of the admin routes. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (request.user?.role !== 'admin') throw new ForbiddenError(ADMIN_MESSAGES.adminOnly);
}

/** Why a guarded change of a user was refused. */
const refusal = (reason: 'not_found' | 'last_admin') =>
  reason === 'not_found' ? new NotFoundError(ADMIN_MESSAGES.userNotFound) : new ConflictError(ADMIN_MESSAGES.lastAdmin);

function toAdminUser(row: UserRow, lastSignIn: number | undefined): AdminUser {
  return {
    _id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    disabled: row.disabled === 1,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    last_login_at: lastSignIn == null ? null : new Date(lastSignIn).toISOString(),
  };
}

const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * ISO date or date-time to epoch ms, in market time (Buenos Aires): a bare date is that market
 * day, from its 00:00 (`from`) or to its end (`to`); a date-time without an offset is Buenos
 * Aires time. The server's own zone never counts.
 */
function parseDate(field: 'from' | 'to', raw: string | undefined): number | undefined {
  if (raw == null || raw === '') return undefined;
  // Date.parse alone also takes '12/31/2024' or 'hello 5', and rolls 2024-02-30 into March.
  const [, day, time, offset] = ISO_DATE_TIME.exec(raw) ?? [];
  const dayStart = day == null ? null : marketDayStart(day);
  const ms = dayStart == null || time == null ? dayStart : Date.parse(offset == null ? `${raw}${MARKET_UTC_OFFSET}` : raw);
  if (ms == null || !Number.isFinite(ms)) throw new InvalidError(ADMIN_MESSAGES.badDate(field));
  return time == null && field === 'to' ? ms + MARKET_DAY_MS - 1 : ms;
}

function encodeCursor(row: { at: number; id: string }): string {
  return Buffer.from(JSON.stringify([row.at, row.id])).toString('base64url');
}

function decodeCursor(raw: string | undefined): { at: number; id: string } | null {
  if (raw == null || raw === '') return null;
  try {
    const text = Buffer.from(raw, 'base64url').toString('utf8');
    // A cursor is a flat [at, id]: anything nested is refused before the parse walks it.
    if (jsonTooDeep(text, 1)) throw new InvalidError(ADMIN_MESSAGES.badCursor);
    const [at, id] = JSON.parse(text) as unknown[];
    // A time that is not a whole number would reach PostgreSQL's bigint and fail there (500).
    if (Number.isSafeInteger(at) && typeof id === 'string') return { at: at as number, id };
  } catch {
    // fall through to the 400 below
  }
  throw new InvalidError(ADMIN_MESSAGES.badCursor);
}

/** The log's filters from a query (user id or username, action, from, to). */
function logFilter(query: { user?: string | undefined; action?: string | undefined; from?: string | undefined; to?: string | undefined }): LogFilter {
  return { user: query.user || undefined, action: query.action || undefined, from: parseDate('from', query.from), to: parseDate('to', query.to) };
}

/** Rows the CSV export reads at a time: memory stays one page, however many rows match. */
const EXPORT_PAGE_ROWS = 1000;
/** The time's column says its zone: its cells carry no offset, so spreadsheets read them as dates. */
export const CSV_TIME_COLUMN = 'fecha (Buenos Aires)';
const CSV_COLUMNS = [CSV_TIME_COLUMN, 'usuario', 'id_usuario', 'accion', 'ip', 'detalle', 'id'];

/**
 * Where a spreadsheet may start a field: the cell's start, and after any character a reader may
 * split at: `,`, `;` (the list separator of Excel in Argentina and most of Europe, which splits
 * this comma-separated file at semicolons, inside quotes too when the field did not start with
 * one) and line breaks. A field that starts, past spaces or quotes, with = + - @ TAB or CR is
 * read as a formula: such a start gets a `'`, which makes it text.
 */
const FORMULA_START = /(^|[,;\r\n])(?=[ "]*[=+\-@\t\r])/g;

/** One CSV cell: quoted when it must be, and never read as a formula by a spreadsheet with either separator. */
function csvCell(value: string | null): string {
  if (value == null) return '';
  const text = value.replace(FORMULA_START, "$1'");
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `2026-11-27 14:02:05`: a log time in Buenos Aires, as spreadsheets read a date and time. */
export function csvTime(at: number): string {
  return marketIsoString(at).slice(0, 19).replace('T', ' ');
}

function csvLine(row: OperatorLogRow): string {
  return [csvTime(row.at), row.username, row.user_id, row.action, row.ip, row.detail, row.id].map(csvCell).join(',') + '\r\n';
}

/**
 * The matching rows as CSV, newest first, one page of the keyset query at a time: the answer
 * is streamed (the stream pulls the next page when the client has read the last).
 */
async function* logCsv(log: OperatorLogRepo, filter: LogFilter): AsyncGenerator<string> {
  // The BOM makes spreadsheets read the file as UTF-8 (names with accents).
  yield '\ufeff' + CSV_COLUMNS.join(',') + '\r\n';
  let after: { at: number; id: string } | null = null;
  for (;;) {
    const rows = await log.list(filter, EXPORT_PAGE_ROWS, after);
    if (rows.length > 0) yield rows.map(csvLine).join('');
    if (rows.length < EXPORT_PAGE_ROWS) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.at, id: last.id };
  }
}

/** The export's file name: the operator log and the day in Buenos Aires, e.g. logs-operadores-2026-11-26.csv. */
export function exportFileName(at: number): string {
  return `logs-operadores-${marketIsoDate(at)}.csv`;
}

/** An admin's action in the operator log, with who did it and from where. */
export function recordAdminAction(ctx: AppContext, request: FastifyRequest, action: OperatorAction, detail: Record<string, unknown>): Promise<void> {
  return ctx.auth.log.add({ userId: request.user!.id, username: request.user!.username, action, detail, ...clientAddress(request) });
}

/** Users and the operator log; admins only. */
export function adminRoutes(ctx: AppContext) {
  const { users, sessions, log } = ctx.auth;

  const endSessions = async (userId: string) => {
    await ctx.sessionEnds.ended({ tokenHashes: await sessions.revokeAllOfUser(userId), userIds: [userId] });
  };
  const record = (request: FastifyRequest, action: 'admin_user_create' | 'admin_user_update' | 'admin_user_delete', detail: Record<string, unknown>) =>
    recordAdminAction(ctx, request, action, detail);

  return async (app: FastifyInstance) => {
    app.addHook('onRequest', requireAdmin);

    app.get('/admin/users', async () => {
      const [rows, lastSignIns] = await Promise.all([users.list(), log.lastSignIns()]);
      return { status: 'success', data: rows.map((row) => toAdminUser(row, lastSignIns.get(row.id))) };
    });

    app.post('/admin/users', async (request, reply) => {
      const input = parseBody(CreateUserRequest, request.body);
      const created = await users.create({ ...input, passwordHash: await ctx.auth.hashPassword(input.password) });
      if (!created) throw new ConflictError(ADMIN_MESSAGES.taken(input.username));
      await record(request, 'admin_user_create', { user_id: created.id, username: created.username, role: created.role });
      reply.code(201);
      return { status: 'success', data: toAdminUser(created, undefined) };
    });

    app.put<{ Params: { id: string } }>('/admin/users/:id', async (request) => {
      const input = parseBody(UpdateUserRequest, request.body);
      const result = await users.updateGuarded(request.params.id, {
        firstName: input.firstName,
        lastName: input.lastName,
        role: input.role,
        disabled: input.disabled,
        passwordHash: input.password == null ? undefined : await ctx.auth.hashPassword(input.password),
      });
      if (!result.ok) throw refusal(result.reason);
      if (input.password != null || input.disabled === true) await endSessions(result.user.id);
      const { password, ...changes } = input;
      await record(request, 'admin_user_update', { user_id: result.user.id, username: result.user.username, ...changes, passwordReset: password != null });
      const lastSignIn = (await log.lastSignIns([result.user.id])).get(result.user.id);
      return { status: 'success', data: toAdminUser(result.user, lastSignIn) };
    });

    app.delete<{ Params: { id: string } }>('/admin/users/:id', async (request) => {
      // Sessions go with the user (cascade), so their token hashes are read before the
      // delete, to close their sockets after it.
      const target = await users.findById(request.params.id);
      if (!target) throw new NotFoundError(ADMIN_MESSAGES.userNotFound);
      const tokenHashes = await sessions.liveTokenHashes(target.id);
      const result = await users.deleteGuarded(target.id);
      if (!result.ok) throw refusal(result.reason);
      await ctx.sessionEnds.ended({ tokenHashes, userIds: [target.id] });
      await ctx.broker.forgetUser(target.id);
      await record(request, 'admin_user_delete', { user_id: target.id, username: target.username });
      return { status: 'ok' };
    });

    app.get('/admin/logs', async (request) => {
      const query = parseBody(LogQuery, request.query);
      const after = decodeCursor(query.cursor);
      const rows = await log.list(logFilter(query), query.limit + 1, after);
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      const data: OperatorLogItem[] = page.map((row) => ({
        id: row.id,
        at: new Date(row.at).toISOString(),
        user_id: row.user_id,
        username: row.username,
        action: row.action,
        detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
        ip: row.ip,
      }));
      return { status: 'success', data, next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null };
    });

    app.get('/admin/logs/export', async (request, reply) => {
      const filter = logFilter(parseBody(LogExportQuery, request.query));
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${exportFileName(ctx.now())}"`);
      return reply.send(Readable.from(logCsv(log, filter)));
    });

    // Who is signed in: users with a live session.
    app.get('/admin/sessions', async () => ({ status: 'success', data: await sessions.signedIn() }));
  };
}
