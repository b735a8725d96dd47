// One error shape for every response: {status:'error', message}. The domains' errors
// (server/errors.ts) carry the message the UI shows; this is the one place that turns each
// kind into a status code. Anything else thrown is a fault: logged with detail and answered
// 500 with a generic message. No stack traces leave.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from '../../src/protocol/zod.js';
import type { ErrorResponse } from '../../src/protocol/auth.js';
import { DomainError, INTERNAL_ERROR_MESSAGE, InvalidError, RateLimitedError, describeZodError, type DomainErrorKind } from '../errors.js';

const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  stale: 412,
  version_required: 428,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
};

export function errorBody(message: string): ErrorResponse {
  return { status: 'error', message };
}

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

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) {
      if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(STATUS_OF[error.kind]).send(errorBody(error.message));
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) return reply.code(known[0]).send(errorBody(known[1]));
    if (error instanceof SyntaxError) return reply.code(400).send(errorBody('El cuerpo de la solicitud no es JSON válido'));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(error.message));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody(INTERNAL_ERROR_MESSAGE));
  });
}
