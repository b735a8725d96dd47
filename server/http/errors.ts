// One error shape for every response: {status:'error', message}. 4xx carry the message the
// UI shows; 5xx are logged with detail and answer a generic message. No stack traces leave.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from '../../src/protocol/zod.js';
import type { ErrorResponse } from '../../src/protocol/auth.js';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function errorBody(message: string): ErrorResponse {
  return { status: 'error', message };
}

/**
 * The message of the first problem zod found; the UI shows it as is. The protocol's zod
 * configuration (src/protocol/zod.ts) makes every message Spanish and name its field.
 */
export function describeZodError(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Datos inválidos';
}

/** Validates a request body (absent bodies count as `{}`) or throws a 400 naming the field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw new HttpError(400, describeZodError(result.error));
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
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(errorBody(error.message));
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) return reply.code(known[0]).send(errorBody(known[1]));
    if (error instanceof SyntaxError) return reply.code(400).send(errorBody('El cuerpo de la solicitud no es JSON válido'));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(error.message));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('Error interno del servidor'));
  });
}
