// The errors the server's domains raise (auth, db, workspace, market, broker), each carrying
// the Spanish message the UI shows. They say what went wrong, not how to answer it: http/
// maps each kind to a status code (http/errors.ts) and ws/ to an error event (ws/endpoint.ts).
// Anything else thrown is a fault: logged, and answered with a generic message.
import type { ErrorResponse } from '../src/protocol/auth.js';
import type { z } from '../src/protocol/zod.js';

export type DomainErrorKind =
  /** The request is malformed or breaks a rule (a bad field, a tree that does not add up). */
  | 'invalid'
  /** No valid session, or a broker refused the credentials. */
  | 'unauthorized'
  /** The caller may not do this (not an admin, not the owner, another user's data). */
  | 'forbidden'
  /** It does not exist, or not for this caller (private things are not revealed). */
  | 'not_found'
  /** It clashes with what is there (a taken name, the last admin, a count quota already full). */
  | 'conflict'
  /** It is over a size limit (a section, the bytes a user may store). */
  | 'too_large'
  /** It existed and was deleted for good: asking again will not bring it back (a deleted visor's id). */
  | 'gone'
  /** The caller's copy is stale: it changed since the version the caller read. */
  | 'stale'
  /** The change needs the version the caller read, and none was given. */
  | 'version_required'
  /** Too many attempts; try again after `retryAfterSeconds`. */
  | 'rate_limited'
  /** A system we depend on (a broker) could not be reached. */
  | 'upstream'
  /** A part of this server (another process, the shared store) did not answer; try again. */
  | 'unavailable';

/** What a fault (anything but a DomainError) is answered with; the detail goes to the log only. */
export const INTERNAL_ERROR_MESSAGE = 'Error interno del servidor';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class InvalidError extends DomainError {
  constructor(message: string) {
    super('invalid', message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message: string) {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class TooLargeError extends DomainError {
  constructor(message: string) {
    super('too_large', message);
  }
}

export class GoneError extends DomainError {
  constructor(message: string) {
    super('gone', message);
  }
}

export class StaleError extends DomainError {
  constructor(message: string) {
    super('stale', message);
  }
}

export class VersionRequiredError extends DomainError {
  constructor(message: string) {
    super('version_required', message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

export class UpstreamError extends DomainError {
  constructor(message: string) {
    super('upstream', message);
  }
}

export class UnavailableError extends DomainError {
  constructor(message: string) {
    super('unavailable', message);
  }
}

/**
 * The message of the first problem zod found; the UI shows it as is. The protocol's zod
 * configuration (src/protocol/zod.ts) makes every message Spanish and name its field.
 */
export function describeZodError(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Datos inválidos';
}

/** The one error body every HTTP answer carries (http/ and ws/ both write it). */
export function errorBody(message: string): ErrorResponse {
  return { status: 'error', message };
}
