// A GET or HEAD may carry a body (RFC 9110 gives it no meaning), and Fastify does not read
// one: it answers with the bytes still unread. Node's server reads them after the answer on a
// kept-alive connection, but on one it closes (`Connection: close`, HTTP/1.0) it closes with
// them unread, and the kernel then resets the connection instead of ending it, dropping what
// of the answer it had not sent yet: an answer over the socket buffers (~128 KB, the
// instrument list) arrived cut off (issue 17, found by tests/api/fuzz.test.ts). This hook
// reads and discards such a body before the request goes on, up to the body limit (413 past
// it), so every answer leaves whole. The JSON bodies of other methods go through
// installJsonParser, which refuses nesting past a depth as the bytes arrive.
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { pipeline, Transform } from 'node:stream';
import { JSON_TOO_DEEP, jsonDepthScanner } from '../../src/protocol/jsonDepth.js';
import { InvalidError } from '../errors.js';
import type { RefusalHold } from './refusalHold.js';

/** Methods whose body Fastify does not parse (so nothing else reads it). */
const UNPARSED = new Set(['GET', 'HEAD']);

/** An onRequest hook: reads and discards the body of a GET or HEAD, refusing one over `limitBytes`. */
export function drainUnparsedBody(limitBytes: number) {
  return async (request: FastifyRequest): Promise<void> => {
    const raw = request.raw;
    if (!UNPARSED.has(request.method) || raw.complete) return;
    const { 'content-length': length, 'transfer-encoding': encoding } = request.headers;
    if ((length == null || length === '0') && encoding == null) return;
    let read = 0;
    for await (const chunk of raw) {
      read += (chunk as Buffer).length;
      if (read > limitBytes) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    }
  };
}

/**
 * Installs the application/json parser: Fastify's own (the same messages, the same refusal of
 * `__proto__` and `constructor.prototype` keys, the same body limit), behind a depth check of
 * the raw bytes as they arrive (src/protocol/jsonDepth.ts). A body nested deeper than
 * MAX_JSON_DEPTH is a 400 with or without a session (sign-in included): from the chunk that
 * goes too deep on, the body is read and dropped, never gathered into a string, parsed or walked.
 * Its reading stops for `refusals`' pause first: a client sending deep bodies one after another
 * (no account needed) has each of its connections send one a pause, not a hundred a second for
 * the server to read and drop.
 */
export function installJsonParser(app: FastifyInstance, limitBytes: number, refusals: RefusalHold): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return payload;
    const scanner = jsonDepthScanner();
    let read = 0;
    let tooDeep = false;
    const checked = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        read += chunk.length;
        if (!tooDeep && scanner.scan(chunk)) {
          tooDeep = true;
          // Nothing more is read meanwhile: the client's sending waits on its own full window.
          return void refusals.hold().then(() => callback());
        }
        if (!tooDeep) return callback(null, chunk);
        // Refused: the rest is read and dropped (never kept, up to the body limit) before the
        // answer, so the client gets the 400 rather than a connection reset mid-send (the
        // refusal closes the connection).
        if (read > limitBytes || request.raw.complete) return callback(new InvalidError(JSON_TOO_DEEP));
        callback();
      },
      flush(callback) {
        callback(tooDeep ? new InvalidError(JSON_TOO_DEEP) : null);
      },
    });
    pipeline(payload, checked, () => {});
    return checked;
  });
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limitBytes }, parse);
}
