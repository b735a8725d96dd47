// What tests/api/fuzz.test.ts sends: fast-check arbitraries for bodies (valid-ish from a
// route's zod schema, and garbage), path parameters, headers and query strings, and a raw
// HTTP/1.1 client that sends them byte for byte (fetch would normalise `..`, refuse raw
// unicode in a path, and merge duplicated headers) and reads every answer on the connection.
import net from 'node:net';
import fc from 'fast-check';
import { z } from '../../src/protocol/zod.js';
import { MAX_JSON_DEPTH } from '../../src/protocol/jsonDepth.js';

// ---------------------------------------------------------------- JSON Schema → values

/** The parts of JSON Schema that z.toJSONSchema writes for the protocol's schemas. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  default?: unknown;
}

/** How deep recursive schemas (the folder tree) are followed; deeper arrays are empty. */
const MAX_SCHEMA_DEPTH = 4;
/** Longest array a valid-ish value has (schemas allow up to 5000 nodes). */
const MAX_VALID_ITEMS = 4;

/** Letters, signs, accents and emoji; now and then a NUL, a lone surrogate or a bidi override, which text fields refuse. */
const validishChar = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(...'abcXYZ019 _-/:.ñé📈') },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e') },
);

/** Values that a schema accepts, or nearly (patterns and lengths are followed; refinements are not). */
export function validish(schema: z.ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fromJsonSchema(json, json.$defs ?? {}, 0);
}

function fromJsonSchema(schema: JsonSchema, defs: Record<string, JsonSchema>, depth: number): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/$defs/', '');
    const target = defs[name];
    if (!target) return fc.constant(null);
    return fc.constant(null).chain(() => fromJsonSchema(target, defs, depth + 1));
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => fromJsonSchema(alternative, defs, depth)));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((one) => fromJsonSchema({ ...schema, type: one }, defs, depth)));
  switch (type[0]) {
    case 'string': {
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? Infinity));
      return fc.string({ minLength: Math.min(schema.minLength ?? 0, maxLength), maxLength, unit: validishChar });
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = schema.items;
      if (!items || depth >= MAX_SCHEMA_DEPTH) return fc.constant([]);
      const minLength = Math.min(schema.minItems ?? 0, MAX_VALID_ITEMS);
      return fc.array(fromJsonSchema(items, defs, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? MAX_VALID_ITEMS, MAX_VALID_ITEMS)),
      });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(properties)) model[key] = fromJsonSchema(property, defs, depth + 1);
      if (Object.keys(model).length === 0) return fc.constant({});
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) });
    }
    default:
      return jsonGarbage;
  }
}

// ---------------------------------------------------------------- garbage

/** Strings that have broken parsers, stores and screens elsewhere. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\ud83d\udcc8',
  '👨‍💻',
  '\u202eevil',
  '\ufeff',
  '\u2028\u2029',
  'javascript:alert(1)',
  'url(http://evil.example/x.png)',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../../../etc/passwd',
  '%ff',
  '%00',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'NaN',
  'null',
  'undefined',
  '-1',
  '1e999',
  'sim://',
  'http://127.0.0.1:1/',
  'BYMA:AL30',
  'DLR/DIC26',
  'POS:primary:',
] as const;

const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 101, max: 5000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 400 }).map((n) => '📈'.repeat(n)) },
);

/** Own enumerable `__proto__` and `constructor` keys (an object literal would set the prototype instead). */
function withPollutionKeys(value: Record<string, unknown>, payload: unknown): Record<string, unknown> {
  const polluted: Record<string, unknown> = { ...value };
  const own = (key: string, value: unknown) => Object.defineProperty(polluted, key, { value, enumerable: true, configurable: true, writable: true });
  own('__proto__', { polluted: payload, isAdmin: true });
  own('constructor', { prototype: { polluted: payload } });
  return polluted;
}

/** `[[[…]]]` or `{"a":{"a":…}}`, deeper than any recursive parser should follow. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = kind === 'array' ? [] : {};
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/**
 * The JSON text of a folder tree `levels` deep (each folder holds the next): the shape issue 17
 * item 3 named. Written as text: JSON.stringify itself overflows the stack a few thousand deep.
 */
export function deepTreeJson(levels: number): Buffer {
  const open: string[] = [];
  for (let level = 1; level <= levels; level++) open.push(`[{"folder_id":"f${level}","name":"n${level}","emoji":"","sub":`);
  return Buffer.from(`${open.join('')}[]${'}]'.repeat(levels)}`);
}

/** Shapes of deep JSON text: nested lists, objects, both, a field of an object, or brackets only inside strings (flat). */
export type DeepShape = 'lists' | 'objects' | 'mixed' | 'field' | 'strings';

/**
 * JSON text whose arrays and objects nest `depth` levels (the 'strings' shape: one level, its
 * strings full of brackets and escaped quotes), written as text: no recursion builds or prints it.
 * `key` names the deep field of the 'field' shape (`{"key":[[[…]]], "password":"x"}`).
 */
export function nestedJsonText(depth: number, shape: DeepShape, key = 'a'): string {
  const lists = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  switch (shape) {
    case 'lists':
      return lists(depth);
    case 'objects':
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    case 'mixed': {
      const pairs = Math.ceil(depth / 2);
      return '{"a":['.repeat(pairs) + '1' + ']}'.repeat(pairs);
    }
    case 'field':
      return `{${JSON.stringify(key)}:${lists(Math.max(0, depth - 1))},"password":"x"}`;
    case 'strings':
      return JSON.stringify({ [key]: '['.repeat(depth) + '\\"' + '{'.repeat(depth), other: '"]}' });
  }
}

/**
 * Deep JSON text around and past MAX_JSON_DEPTH (one under, at, one over, and far past it), of
 * every DeepShape, at most `maxBytes` long: what the server must refuse before parsing (or, at
 * the limit and in strings, parse as any other body).
 */
export function deepJson(maxBytes: number, keys: readonly string[] = ['a']): fc.Arbitrary<Buffer> {
  const depth = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1) },
    { weight: 2, arbitrary: fc.integer({ min: MAX_JSON_DEPTH + 2, max: Math.floor(maxBytes / 7) }) },
  );
  const shape = fc.constantFrom<DeepShape>('lists', 'objects', 'mixed', 'field', 'strings');
  return fc.tuple(depth, shape, fc.constantFrom(...keys)).map(([levels, form, key]) => Buffer.from(nestedJsonText(levels, form, key)));
}

export const jsonGarbage: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, 0.1, true, false, null, [], {}) },
  { weight: 1, arbitrary: fc.record({ k: fc.jsonValue({ maxDepth: 2 }) }).map((value) => withPollutionKeys(value, 1)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 50, max: 1000 }), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>)
      .map(([depth, kind]) => deeplyNested(depth, kind)),
  },
);

/** A valid-ish value with one field broken: another type, a nasty string, removed, or extra keys. */
function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, jsonGarbage, fc.nat(), fc.constantFrom('replace', 'remove', 'extra', 'pollute', 'wrap')).map(([value, garbage, index, how]) => {
    if (typeof value !== 'object' || value == null) return how === 'wrap' ? [value] : garbage;
    if (Array.isArray(value)) return how === 'remove' ? value.slice(1) : [...value, garbage];
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    const key = keys.length > 0 ? keys[index % keys.length]! : 'x';
    switch (how) {
      case 'replace':
        return { ...record, [key]: garbage };
      case 'remove': {
        const { [key]: _removed, ...rest } = record;
        return rest;
      }
      case 'extra':
        return { ...record, [`extra${index % 3}`]: garbage };
      case 'pollute':
        return withPollutionKeys(record, garbage);
      default:
        return [record];
    }
  });
}

/** A JSON value for a route's body: valid-ish (when the route has a schema), mutated, or garbage. */
export function jsonBody(schema: z.ZodType | undefined): fc.Arbitrary<unknown> {
  if (!schema) return jsonGarbage;
  const valid = validish(schema);
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 3, arbitrary: mutated(valid) }, { weight: 2, arbitrary: jsonGarbage });
}

/** JSON.stringify that also writes lone surrogates as they are (escaped) and never throws. */
function toJsonText(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** Bytes that are not a JSON document, or not UTF-8. */
const rawGarbage: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      '',
      '{',
      '{"a":',
      '[1,2',
      'nul',
      'undefined',
      "{'a':1}",
      '{"a":1}garbage',
      '{"a":1,"a":2}',
      '1e999999',
      '-',
      '\u0000',
      '"\\ud800"',
      '{"__proto__":{"isAdmin":true}}',
    )
    .map((text) => Buffer.from(text)),
  fc.constantFrom(
    Buffer.from([0xff, 0xfe, 0xfd]),
    Buffer.from('{"username":"\xc3\x28","password":"x"}', 'latin1'),
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  ),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')])),
  fc.integer({ min: 1000, max: 200_000 }).map((depth) => Buffer.from('['.repeat(depth))),
);

export interface BodyCase {
  /** What the body is, for the failure report. */
  kind: 'none' | 'json' | 'raw' | 'huge' | 'deep';
  bytes: Buffer | null;
}

/** Every kind of body, the route's shapes most often. Huge ones (around and over the 1 MB limit) are rare: they cost time. */
export function bodyCase(schema: z.ZodType | undefined, special?: fc.Arbitrary<Buffer>): fc.Arbitrary<BodyCase> {
  return fc.oneof(
    ...(special ? [{ weight: 2, arbitrary: special.map((bytes): BodyCase => ({ kind: 'json', bytes })) }] : []),
    { weight: 2, arbitrary: fc.constant<BodyCase>({ kind: 'none', bytes: null }) },
    { weight: 12, arbitrary: jsonBody(schema).map((value): BodyCase => ({ kind: 'json', bytes: Buffer.from(toJsonText(value)) })) },
    { weight: 3, arbitrary: rawGarbage.map((bytes): BodyCase => ({ kind: 'raw', bytes })) },
    { weight: 2, arbitrary: deepJson(1024 * 1024, ['username', 'title', 'secciones', 'a']).map((bytes): BodyCase => ({ kind: 'deep', bytes })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(150_000, 1024 * 1024 - 20, 1024 * 1024 + 10), fc.constantFrom('string', 'array')).map(([size, how]): BodyCase => {
        const text = how === 'string' ? `{"x":"${'a'.repeat(size)}"}` : `[${'1,'.repeat(Math.floor(size / 2))}1]`;
        return { kind: 'huge', bytes: Buffer.from(text) };
      }),
    },
  );
}

// ---------------------------------------------------------------- path parameters

/** A path segment as sent: valid values for the route, or encoded, long, traversing and broken ones. */
export function pathSegment(valid: readonly string[]): fc.Arbitrary<string> {
  const encoded = (text: string) => encodeURIComponent(text);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...valid) },
    { weight: 2, arbitrary: nastyString.filter((text) => text.length > 0).map((text) => safeEncode(text)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('..', '.', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%ff', '%', '%zz', '%c0%ae', '%00', '%ed%a0%80', '%2F', 'a%20b', ';', '*'),
    },
    { weight: 1, arbitrary: fc.integer({ min: 90, max: 3000 }).map((n) => 'a'.repeat(n)) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 300 }).map((n) => encoded('😀'.repeat(n))) },
    // Raw UTF-8 bytes in the request line, as no browser sends them.
    { weight: 1, arbitrary: fc.constantFrom('ñandú', '📈', 'a b', 'a\tb') },
    { weight: 1, arbitrary: fc.constantFrom(...valid).map((value) => value.toUpperCase()) },
  );
}

/** encodeURIComponent, which throws on lone surrogates: those are sent as their (broken) UTF-8 bytes, percent-encoded. */
function safeEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

// ---------------------------------------------------------------- query strings

/** A query string (without `?`), valid-ish from the route's query schema or garbage. */
export function queryString(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const pairs = (entries: [string, string][]) => entries.map(([key, value]) => `${key}=${value}`).join('&');
  const valid = schema
    ? validish(schema).map((value) =>
        Object.entries((value ?? {}) as Record<string, unknown>)
          .map(([key, item]) => `${encodeURIComponent(key)}=${safeEncode(String(item))}`)
          .join('&'),
      )
    : fc.constant('');
  const keys = fc.constantFrom('limit', 'cursor', 'from', 'to', 'user', 'action', '__proto__', 'constructor', '__proto__[isAdmin]', 'a[b][c]', 'x', '');
  const values = fc.oneof(
    nastyString.map(safeEncode),
    fc.constantFrom('%ff', '%', '1e999', '-1', '0', '201', 'abc', '2024-02-30', '2024-01-01T00:00:00Z', '%00', 'W1sxXV0'),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 3, arbitrary: valid },
    { weight: 3, arbitrary: fc.array(fc.tuple(keys, values), { maxLength: 6 }).map(pairs) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.array(fc.tuple(keys, values), { minLength: 1, maxLength: 3 }))
        .map(([first, extra]) => [first, pairs(extra)].filter(Boolean).join('&')),
    },
    { weight: 1, arbitrary: fc.integer({ min: 2000, max: 20_000 }).map((n) => `x=${'a'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 2000 }).map((n) => Array.from({ length: n }, (_, i) => `k${i}=${i}`).join('&')) },
  );
}

// ---------------------------------------------------------------- headers

export type HeaderList = [string, string][];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json;',
  'application/json; charset="utf-8"; boundary=x',
  'application/vnd.api+json',
  'application/json, text/plain',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  '',
  '*/*',
  ';;;',
  'application/json\u0000',
] as const;

export interface HeaderCase {
  /** Which token to send: the user's, the admin's, none, or a broken one. */
  auth: 'user' | 'admin' | 'none' | 'garbage';
  /** The Authorization header's form when a token is sent. */
  authForm: 'bearer' | 'lowercase' | 'extra' | 'twice' | 'basic';
  contentType: string | null;
  /** A second Content-Type with another value. */
  duplicateContentType: boolean;
  /** Extra headers: big ones, conditional ones, upgrade ones. */
  extra: HeaderList;
  /** Content-Length: right, absent (chunked), off by some bytes, or twice. */
  framing: 'length' | 'chunked' | 'short' | 'long' | 'twice' | 'both';
  host: 'ok' | 'missing' | 'twice' | 'evil';
}

export function headerCase(socketRoute: boolean): fc.Arbitrary<HeaderCase> {
  const extraHeader: fc.Arbitrary<[string, string]> = fc.oneof(
    fc.tuple(fc.constantFrom('if-match', 'if-none-match'), fc.constantFrom('*', '"1"', 'W/"1"', '1', 'abc', '"99999999999999999999"', '', '"1", "2"')),
    fc.tuple(
      fc.constant('x-big'),
      fc.integer({ min: 4000, max: 20_000 }).map((n) => 'b'.repeat(n)),
    ),
    fc.tuple(
      fc.constant('cookie'),
      fc.integer({ min: 100, max: 10_000 }).map((n) => `a=${'c'.repeat(n)}`),
    ),
    fc.tuple(
      fc.constantFrom('x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'),
      fc.constantFrom('127.0.0.1', 'https', 'evil.example', '::1, 10.0.0.1', 'ñ'),
    ),
    fc.tuple(
      fc.constantFrom('accept', 'accept-encoding', 'accept-language', 'origin', 'referer', 'user-agent'),
      nastyString.map((text) =>
        Buffer.from(text, 'utf8')
          .toString('latin1')
          .replace(/[\r\n\0]/g, ''),
      ),
    ),
    fc.tuple(fc.constant('expect'), fc.constantFrom('100-continue', 'nonsense')),
    fc.tuple(fc.constant('transfer-encoding'), fc.constantFrom('gzip', 'chunked, chunked', 'identity')),
    fc.tuple(fc.constant('content-encoding'), fc.constantFrom('gzip', 'br', 'deflate', 'nonsense')),
  );
  const upgradeHeaders: fc.Arbitrary<HeaderList> = fc
    .tuple(
      fc.constantFrom('13', '8', 'x', ''),
      fc.constantFrom('dGhlIHNhbXBsZSBub25jZQ==', 'short', ''),
      fc.constantFrom('http://evil.example', 'null', 'http://127.0.0.1', 'file://', 'http://[::1]'),
      fc.boolean(),
    )
    .map(([version, key, origin, spoofHost]): HeaderList => [
      ['upgrade', 'websocket'],
      ['connection', 'Upgrade'],
      ['sec-websocket-version', version],
      ['sec-websocket-key', key],
      ['origin', origin],
      // The Host of the Origin's site, as a DNS-rebinding page sends: the Origin must still be refused.
      ...(spoofHost ? [['host', new URL(origin.startsWith('http') ? origin : 'http://evil.example').host] as [string, string]] : []),
    ]);
  // Most cases are a well-formed request of a signed-in user or admin, so the body and the
  // parameters reach the handlers; the rest break the headers and the framing too.
  const clean: fc.Arbitrary<HeaderCase> = fc.record({
    auth: fc.constantFrom('user' as const, 'admin' as const),
    authForm: fc.constant('bearer' as const),
    contentType: fc.constant('application/json'),
    duplicateContentType: fc.constant(false),
    extra: socketRoute ? fc.oneof(fc.constant<HeaderList>([]), upgradeHeaders) : fc.constant<HeaderList>([]),
    framing: fc.constant('length' as const),
    host: fc.constant('ok' as const),
  });
  const wild: fc.Arbitrary<HeaderCase> = fc.record({
    auth: fc.constantFrom('user', 'admin', 'none', 'garbage'),
    authForm: fc.oneof(
      { weight: 8, arbitrary: fc.constant('bearer' as const) },
      { weight: 1, arbitrary: fc.constantFrom('lowercase', 'extra', 'twice', 'basic') },
    ),
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
    duplicateContentType: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    extra: socketRoute ? fc.oneof(fc.array(extraHeader, { maxLength: 2 }), upgradeHeaders) : fc.array(extraHeader, { maxLength: 2 }),
    framing: fc.oneof(
      { weight: 12, arbitrary: fc.constant('length' as const) },
      { weight: 1, arbitrary: fc.constantFrom('chunked', 'short', 'long', 'twice', 'both') },
    ),
    host: fc.oneof({ weight: 12, arbitrary: fc.constant('ok' as const) }, { weight: 1, arbitrary: fc.constantFrom('missing', 'twice', 'evil') }),
  });
  return fc.oneof({ weight: 3, arbitrary: clean }, { weight: 2, arbitrary: wild });
}

// ---------------------------------------------------------------- raw HTTP/1.1

export interface RawRequest {
  method: string;
  /** Sent as is (UTF-8) in the request line. */
  target: string;
  headers: HeaderList;
  body: Buffer | null;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string[]>;
  body: Buffer;
  /** The body arrived whole (as long as its Content-Length, or its last chunk). */
  complete: boolean;
}

export interface RawExchange {
  answers: RawAnswer[];
  /** Set when the connection failed, timed out, or carried bytes that are not an HTTP answer. */
  problem: string | null;
}

export interface RawOptions {
  /**
   * Half-closes the connection once the request is written, as a client that gives up on an
   * upload does. Node's server then drops the requests it has not answered yet, so only with
   * this can "no answer" be right.
   */
  halfClose?: boolean;
}

/**
 * Sends one request on a new connection and reads every answer until the server closes it
 * (the request says `connection: close`), or until the first whole answer when it asks to keep
 * the connection (an upgrade).
 */
export function rawHttp(port: number, request: RawRequest, timeoutMs: number, options: RawOptions = {}): Promise<RawExchange> {
  return new Promise((resolve) => {
    const head = `${request.method} ${request.target} HTTP/1.1\r\n${request.headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
    const chunks: Buffer[] = [];
    let problem: string | null = null;
    let settled = false;
    const socket = net.connect({ port, host: '127.0.0.1' });
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseAnswers(Buffer.concat(chunks));
      resolve({ answers: parsed.answers, problem: problem ?? parsed.problem });
    };
    const timer = setTimeout(() => {
      problem = `no end of the answer within ${timeoutMs} ms (${Buffer.concat(chunks).length} bytes read)`;
      finish();
    }, timeoutMs);
    const closes = request.headers.some(([name, value]) => name.toLowerCase() === 'connection' && value.toLowerCase() === 'close');
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A switched protocol or a kept connection never ends by itself: one answer is all there is to read.
      const { answers } = parseAnswers(Buffer.concat(chunks));
      if (answers[0] && (answers[0].status === 101 || (!closes && answers[0].complete))) finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may answer and close before the whole body is written (413): EPIPE and
      // ECONNRESET after an answer are fine; without one they are a problem, reported below.
      if (chunks.length === 0 && !['EPIPE', 'ECONNRESET'].includes(error.code ?? '')) problem = `connection error ${error.code ?? error.message}`;
      finish();
    });
    socket.write(Buffer.from(head, 'utf8'));
    if (request.body) socket.write(request.body);
    if (options.halfClose) socket.end();
  });
}

function parseAnswers(bytes: Buffer): { answers: RawAnswer[]; problem: string | null } {
  const answers: RawAnswer[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset, 'latin1');
    if (headEnd < 0)
      return { answers, problem: `bytes that are not an HTTP answer: ${JSON.stringify(bytes.subarray(offset, offset + 200).toString('latin1'))}` };
    const lines = bytes.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!statusMatch) return { answers, problem: `not a status line: ${JSON.stringify(lines[0])}` };
    const status = Number(statusMatch[1]);
    const headers: Record<string, string[]> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      (headers[name] ??= []).push(line.slice(colon + 1).trim());
    }
    offset = headEnd + 4;
    // An interim answer (100 Continue): the real one follows.
    if (status >= 100 && status < 200 && status !== 101) continue;
    const length = headers['content-length']?.[0];
    let body: Buffer;
    let complete = true;
    if (status === 101 || status === 204 || status === 304) {
      body = Buffer.alloc(0);
    } else if (headers['transfer-encoding']?.some((value) => value.toLowerCase().includes('chunked'))) {
      const parts: Buffer[] = [];
      complete = false;
      while (offset < bytes.length) {
        const lineEnd = bytes.indexOf('\r\n', offset, 'latin1');
        if (lineEnd < 0) break;
        const size = parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) break;
        offset = lineEnd + 2;
        if (size === 0) {
          offset = bytes.indexOf('\r\n', offset, 'latin1') + 2 || bytes.length;
          complete = true;
          break;
        }
        parts.push(bytes.subarray(offset, offset + size));
        offset += size + 2;
      }
      body = Buffer.concat(parts);
    } else if (length != null) {
      const size = Number(length);
      body = bytes.subarray(offset, offset + size);
      complete = body.length === size;
      offset += size;
    } else {
      body = bytes.subarray(offset);
      offset = bytes.length;
    }
    answers.push({ status, headers, body, complete });
    if (status === 101) break;
  }
  return { answers, problem: null };
}
