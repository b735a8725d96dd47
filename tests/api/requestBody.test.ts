// A GET with a body (which Fastify does not read) on a connection the server closes after
// the answer: the answer must arrive whole. Before server/http/requestBody.ts, the server
// closed with the body unread, the kernel reset the connection, and an answer larger than the
// socket buffers (the instrument list, ~150 KB) was cut off (issue 17, found by the fuzz test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../src/protocol/auth.js';
import { InstrumentsResponse } from '../../src/protocol/market.js';
import { startServer, type TestServer } from './harness.js';
import { expectShape, session, type Session } from './helpers.js';
import { rawHttp, type HeaderList } from './fuzzInputs.js';

describe('a GET with a body on sqlite', () => {
  let server: TestServer;
  let port: number;
  let demo: Session;

  beforeAll(async () => {
    server = await startServer({ name: 'sqlite' });
    port = Number(new URL(server.baseUrl).port);
    demo = await session(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function getInstruments(body: Buffer | null, framing: HeaderList) {
    const headers: HeaderList = [
      ['host', `127.0.0.1:${port}`],
      ['connection', 'close'],
      ['authorization', `Bearer ${demo.token}`],
      ['content-type', 'application/json'],
      ...framing,
    ];
    return rawHttp(port, { method: 'GET', target: '/api/visores/primary/instruments', headers, body }, 10_000);
  }

  it('answers whole, with a body of 195 KB (Content-Length or chunked) as without one', async () => {
    const plain = await getInstruments(null, []);
    expect(plain.answers[0]?.status).toBe(200);
    const expected = plain.answers[0]!.body.length;
    // Larger than the socket buffers, or the test would not show the cut.
    expect(expected).toBeGreaterThan(140_000);

    const json = Buffer.from(JSON.stringify({ x: 'a'.repeat(195_000) }));
    const chunked = Buffer.concat([Buffer.from(`${json.length.toString(16)}\r\n`), json, Buffer.from('\r\n0\r\n\r\n')]);
    const cases: [Buffer, HeaderList][] = [
      [json, [['content-length', String(json.length)]]],
      [chunked, [['transfer-encoding', 'chunked']]],
    ];
    for (const [body, framing] of cases) {
      const exchange = await getInstruments(body, framing);
      expect(exchange.problem).toBeNull();
      const [answer] = exchange.answers;
      expect(answer?.status).toBe(200);
      expect(answer?.complete, `${answer?.body.length} of ${answer?.headers['content-length']?.[0]} bytes`).toBe(true);
      expect(answer!.body.length).toBe(expected);
      expectShape(InstrumentsResponse, JSON.parse(answer!.body.toString('utf8')));
    }
  });

  it('refuses a GET body over the 1 MB limit with 413 {status:"error", message}', async () => {
    const body = Buffer.alloc(1024 * 1024 + 10, 'a');
    const exchange = await getInstruments(body, [['content-length', String(body.length)]]);
    const [answer] = exchange.answers;
    expect(answer?.status).toBe(413);
    expect(answer?.headers['content-type']?.[0]).toMatch(/^application\/json/);
    expect(expectShape(ErrorResponse, JSON.parse(answer!.body.toString('utf8'))).message).toMatch(/1 MB/);
  });
});
