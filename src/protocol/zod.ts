// zod, configured once for every schema of the protocol: messages in Spanish that name the
// field. A schema's own message (e.g. 'El título no puede estar vacío') is used as is; these
// apply only where a schema gave none. Protocol files import z from here.
import { z } from 'zod';

const spanish = z.locales.es().localeError;

function fieldName(path: readonly PropertyKey[] | undefined): string {
  return (path ?? []).map(String).join('.');
}

/** Control characters (C0, DEL, C1) and UTF-16 surrogates without their other half. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSAFE_TEXT_MESSAGE = 'contiene caracteres no permitidos (de control o Unicode inválido)';

function unsafeTextMessage(field: string): string {
  return field ? `El campo ${field} ${UNSAFE_TEXT_MESSAGE}` : `El texto ${UNSAFE_TEXT_MESSAGE}`;
}

/** True when `text` has no control character and no lone surrogate. */
export function isSafeText(text: string): boolean {
  return !UNSAFE_TEXT.test(text);
}

/**
 * z.string() for text the API accepts from a client (issue 17): refuses control characters
 * (NUL, ESC, …, tabs and newlines included) and lone UTF-16 surrogates, with a message
 * naming the field; with `trim`, after trimming. Every text field of a request is one of these; passwords are not (they are only hashed).
 */
export function safeText(params?: Parameters<typeof z.string>[0], options: { trim?: boolean } = {}) {
  const base = options.trim ? z.string(params).trim() : z.string(params);
  return base.refine(isSafeText, { error: (issue) => unsafeTextMessage(fieldName(issue.path)) });
}

/** safeText of the text without its leading and trailing whitespace (a tab or newline there is trimmed, not refused). */
export function trimmedText(params?: Parameters<typeof z.string>[0]) {
  return safeText(params, { trim: true });
}

z.config({
  ...z.locales.es(),
  // No compiled fast path: zod probes for it with `new Function`, which the app's CSP
  // (script-src 'self', no 'unsafe-eval') refuses and reports as a violation. The browser's
  // objects are small; the server, with no CSP over it, turns it back on (server/app.ts).
  jitless: true,
  customError(issue) {
    const field = fieldName(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => (field ? `${field}.${key}` : key));
      return `Campo desconocido: ${keys.join(', ')}`;
    }
    if (issue.code === 'invalid_type') {
      if (issue.input === undefined) return field ? `Falta el campo ${field}` : 'Falta el cuerpo de la solicitud';
      return field ? `El campo ${field} tiene un tipo inválido` : 'El cuerpo de la solicitud tiene un tipo inválido';
    }
    const base = spanish?.(issue);
    const message = typeof base === 'string' ? base : base?.message;
    if (!message) return undefined;
    return field ? `${field}: ${message}` : message;
  },
});

export { z };
