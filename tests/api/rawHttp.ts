// Bytes over a plain TCP socket (node:net), for requests fetch will not send: a malformed
// request line, a body shorter than its Content-Length, headers over Node's limit.
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `bytes` to the server of `baseUrl`, then (unless `keepOpen`) half-closes the socket,
 * and reads the answer until the server closes or `timeoutMs` passes.
 */
export function rawRequest(baseUrl: string, bytes: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, timeoutMs);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return reject(new Error(`No HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = text.slice(headEnd + 4);
      const length = headers['content-length'];
      if (length != null) body = Buffer.from(body).subarray(0, Number(length)).toString('utf8');
      resolve({ status, headers, body });
    };
    socket.on('connect', () => {
      socket.write(bytes);
      socket.end();
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', finish);
    socket.on('error', () => finish());
  });
}
