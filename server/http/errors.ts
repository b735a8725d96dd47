// One error shape for every response: {status:'error', message}. The domains' errors
// (server/errors.ts) carry the message the UI shows; this is the one place that turns each
// kind into a status code. Anything else thrown is a fault: logged with detail and answered
// 500 with a generic message. No stack traces leave.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from '../../src/protocol/zod.js';
import { isDatabaseUnavailable } from '../db/index.js';
import type { AnswerHeaders } from './security.js';
import type { RefusalHold } from './refusalHold.js';
import { DomainError, INTERNAL_ERROR_MESSAGE, InvalidError, RateLimitedError, describeZodError, errorBody, type DomainErrorKind } from '../errors.js';

const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  gone: 410,
  stale: 412,
  version_required: 428,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
};

/** Validates a request body (absent bodies count as `{}`) or throws a 400 naming the field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw new InvalidError(describeZodError(result.error));
  return result.data;
}

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'El cuerpo de la solicitud no es JSON válido'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'El cuerpo de la solicitud está vacío; envíe un objeto JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'El cuerpo de la solicitud supera el máximo de 1 MB'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Tipo de contenido no admitido: envíe application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'El largo declarado del cuerpo no coincide con el recibido'],
};

/**
 * What a 4xx that is not the app's own error says: the framework's and Node's texts are
 * English and name internals ("aborted", "FST_ERR_…"), so they never reach the client.
 */
const GENERIC_MESSAGES: Record<number, string> = {
  400: 'La solicitud está mal formada',
  404: 'Ruta no encontrada',
  405: 'Método no permitido',
  408: 'La solicitud tardó demasiado en llegar',
  413: 'El cuerpo de la solicitud supera el máximo de 1 MB',
  414: 'La dirección de la solicitud es demasiado larga',
  415: 'Tipo de contenido no admitido: envíe application/json',
  431: 'Los encabezados de la solicitud son demasiado grandes',
};

function genericMessage(status: number): string {
  return GENERIC_MESSAGES[status] ?? 'La solicitud no es válida';
}

/**
 * Errors the router raises before any route runs (Fastify's `frameworkErrors`): a path that
 * is not valid percent-encoding, or a parameter over `maxParamLength`. These answers skip the
 * routes' hooks (helmet's among them): `headers` are the security headers every answer carries.
 */
export function frameworkErrorHandler(headers: AnswerHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : (error.statusCode ?? 400);
    const message =
      error.code === 'FST_ERR_BAD_URL'
        ? 'La dirección de la solicitud tiene una codificación inválida'
        : genericMessage(status >= 400 && status < 500 ? status : 400);
    void reply
      .code(status < 400 || status >= 500 ? 400 : status)
      .headers(headers(request.protocol === 'https'))
      .send(errorBody(message));
  };
}

/** The head of an answer written on the socket or with writeHead: status line aside, headers as `Name: value` lines. */
function headerLines(headers: Record<string, string | number>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

/**
 * Node's HTTP parser refused the request before Fastify saw it (a malformed request line or
 * header, headers over the size limit, a timeout): the answer is written on the socket, with
 * the security headers of every answer (`headers`). Replaces Fastify's default, whose body is
 * `{error, message, statusCode}` in English.
 */
export function clientErrorHandler(headers: AnswerHeaders) {
  return function (this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message = status === 400 ? 'La solicitud HTTP está mal formada' : genericMessage(status);
    this.log.debug({ err: error }, 'client error');
    if (socket.writable) {
      const body = JSON.stringify(errorBody(message));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          headerLines({
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
            ...headers(),
            connection: 'close',
          }) +
          '\r\n' +
          body,
      );
    }
    socket.destroy(error);
  };
}

/**
 * Answers Node would write itself with an empty body, in the contract instead: an HTTP/1.1
 * request without a Host header (400) and an `Expect` other than `100-continue` (417).
 */
export function installNodeAnswers(app: FastifyInstance, headers: AnswerHeaders): void {
  // Node answers a Host-less HTTP/1.1 request itself (400, no body) unless this is off; the hook says why.
  (app.server as typeof app.server & { requireHostHeader: boolean }).requireHostHeader = false;
  app.addHook('onRequest', async (request) => {
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') throw new InvalidError('Falta el encabezado Host');
  });
  // With a listener, Node leaves an unknown expectation to it instead of writing an empty 417.
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify(errorBody('Expectativa no admitida: el único valor de Expect aceptado es 100-continue'));
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      ...headers(),
      connection: 'close',
    });
    response.end(body);
  });
}

/** Said when the database cannot be reached; the request can be repeated as it is. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'La base de datos no responde en este momento: reintente en unos segundos';
const DATABASE_RETRY_AFTER_SECONDS = 2;

/** `refusals`: the pause a 429 is answered after. */
export function installErrorHandler(app: FastifyInstance, refusals: RefusalHold): void {
  app.setErrorHandler(async (error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) {
      if (error instanceof RateLimitedError) {
        await refusals.hold(error.retryAfterSeconds);
        reply.header('retry-after', String(error.retryAfterSeconds));
      }
      return reply.code(STATUS_OF[error.kind]).send(errorBody(error.message));
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) return reply.code(known[0]).send(errorBody(known[1]));
    if (error instanceof SyntaxError) return reply.code(400).send(errorBody('El cuerpo de la solicitud no es JSON válido'));
    const status = error.statusCode ?? 500;
    // A 4xx of the framework or of Node (an aborted body, a bad header): its own text is English.
    // Before the database's check: a client that left mid-body is an ECONNRESET too.
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(genericMessage(status)));
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'request failed: the database cannot be reached');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(errorBody(DATABASE_UNAVAILABLE_MESSAGE));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(INTERNAL_ERROR_MESSAGE));
  });
}
