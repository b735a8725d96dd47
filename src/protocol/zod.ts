// zod, configured once for every schema of the protocol: messages in Spanish that name the
// field. A schema's own message (e.g. 'El título no puede estar vacío') is used as is; these
// apply only where a schema gave none. Protocol files import z from here.
import { z } from 'zod';

const spanish = z.locales.es().localeError;

function fieldName(path: readonly PropertyKey[] | undefined): string {
  return (path ?? []).map(String).join('.');
}

z.config({
  ...z.locales.es(),
  // No compiled fast path: zod probes for it with `new Function`, which the app's CSP
  // (script-src 'self', no 'unsafe-eval') refuses and reports as a violation. Our objects are
  // small; the interpreted parse is enough on the server too.
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
