// The broker allow-list (issue 17): the setting, the address check, and the guarded lookup
// and fetch the broker connections go through. No real DNS: resolvers are stand-ins.
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakePrimary, type FakePrimaryServer } from '../../tests/fakes/primaryServer.js';
import { createPrimaryClient } from '../market/primary/client.js';
import type { PrimaryClient } from '../market/primary/types.js';
import {
  brokerTarget,
  DEFAULT_BROKER_URLS,
  guardedLookup,
  isPublicAddress,
  parseBrokerUrls,
  PrivateAddressError,
  resolvePublic,
  type Resolver,
} from './brokerUrl.js';
import { createGuardedFetch, type GuardedFetch } from './guardedFetch.js';

describe('BROKER_URLS', () => {
  it('defaults to the public Primary API hosts', () => {
    expect(parseBrokerUrls(null)).toEqual([...DEFAULT_BROKER_URLS]);
    expect(parseBrokerUrls('  ')).toEqual([...DEFAULT_BROKER_URLS]);
    expect(DEFAULT_BROKER_URLS).toEqual(['https://api.remarkets.primary.com.ar', 'https://api.primary.com.ar']);
  });

  it('reads comma-separated origins, a trailing slash and case aside; none allows the paper broker only', () => {
    expect(parseBrokerUrls('https://API.Broker.xoms.com.ar/, http://127.0.0.1:9000 ,https://x.example:443')).toEqual([
      'https://api.broker.xoms.com.ar',
      'http://127.0.0.1:9000',
      'https://x.example',
    ]);
    expect(parseBrokerUrls('none')).toEqual([]);
  });

  it('stops the start on an entry that is not an http(s) origin', () => {
    for (const entry of [
      'api.broker.com',
      'ftp://broker.example',
      'https://broker.example/api/',
      'https://u:p@broker.example',
      'https://broker.example/?a=1',
    ]) {
      expect(() => parseBrokerUrls(entry), entry).toThrow(/BROKER_URLS/);
    }
  });
});

describe('brokerTarget', () => {
  const allowed = ['https://api.remarkets.primary.com.ar', 'http://127.0.0.1:9000', 'http://[::1]:9001'];

  it('lets sim:// and the allowed origins through, with their path, without query or fragment', () => {
    expect(brokerTarget('sim://', allowed)).toEqual({ kind: 'paper' });
    expect(brokerTarget('https://API.remarkets.primary.com.ar:443/x/?q=1#f', allowed)).toEqual({
      kind: 'primary',
      url: 'https://api.remarkets.primary.com.ar/x/',
      origin: 'https://api.remarkets.primary.com.ar',
      hostname: 'api.remarkets.primary.com.ar',
      addressNamed: false,
    });
    expect(brokerTarget('http://127.0.0.1:9000', allowed)).toMatchObject({ kind: 'primary', hostname: '127.0.0.1', addressNamed: true });
    expect(brokerTarget('http://[::1]:9001/', allowed)).toMatchObject({ kind: 'primary', hostname: '::1', addressNamed: true });
    // Other spellings of an allowed address are that address (the URL parser normalises them).
    expect(brokerTarget('http://2130706433:9000/', allowed)).toMatchObject({ kind: 'primary', url: 'http://127.0.0.1:9000/' });
  });

  it('refuses what is not an http(s) URL as malformed, and any other origin as not allowed', () => {
    for (const url of ['not a url', 'ftp://broker.example', 'sim:/', 'sim://x', 'javascript:alert(1)', 'http:/127.0.0.1:9000']) {
      expect(brokerTarget(url, allowed), url).toEqual({ refused: 'malformed' });
    }
    for (const url of [
      'http://127.0.0.1:9001/',
      'http://127.0.0.2:9000/',
      'http://localhost:9000/',
      'http://2130706433:9001/',
      'http://0x7f.0.0.1:9001/',
      'http://[::ffff:127.0.0.1]:9000/',
      'http://api.remarkets.primary.com.ar/',
      'https://api.remarkets.primary.com.ar.evil.example/',
      'https://user:pw@api.remarkets.primary.com.ar/',
      'https://api.remarkets.primary.com.ar:8443/',
    ]) {
      expect(brokerTarget(url, allowed), url).toEqual({ refused: 'not_allowed' });
    }
  });
});

describe('isPublicAddress', () => {
  it('refuses private, loopback, link-local, unique-local, CGNAT, multicast, unspecified and reserved addresses', () => {
    for (const address of [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '10.255.255.255',
      '100.64.0.1',
      '100.127.255.254',
      '127.0.0.1',
      '127.255.255.255',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::127.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.1.2.3',
      '::ffff:169.254.169.254',
      '64:ff9b::10.0.0.1',
      '64:ff9b:1::1',
      '100::1',
      '2001::1',
      '2001:db8::1',
      '2002:7f00:1::1',
      '2002:c0a8:101::',
      'fc00::1',
      'fd12:3456:789a::1',
      'fe80::1',
      'fe80::1%eth0',
      'febf::1',
      'fec0::1',
      'ff02::1',
      'not-an-ip',
      '',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('accepts public addresses, IPv4 ones inside IPv6 included', () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '169.253.0.1',
      '192.167.1.1',
      '200.5.112.10',
      '2800:3f0:4002:80a::200e',
      '2606:4700::6810:84e5',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

/** A resolver that answers from a table, and counts its calls. */
function tableResolver(table: Record<string, string[]>): Resolver & { calls: number } {
  const resolve = async (hostname: string) => {
    resolve.calls++;
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  resolve.calls = 0;
  return resolve;
}

describe('resolvePublic and guardedLookup', () => {
  const resolve = tableResolver({
    'broker.example': ['200.5.112.10', '2800:3f0::1'],
    'rebound.example': ['200.5.112.10', '10.0.0.7'],
    'metadata.example': ['169.254.169.254'],
  });

  it('resolves a name to its addresses when all are public, and refuses it when any is not', async () => {
    expect(await resolvePublic('broker.example', resolve)).toEqual([
      { address: '200.5.112.10', family: 4 },
      { address: '2800:3f0::1', family: 6 },
    ]);
    await expect(resolvePublic('rebound.example', resolve)).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(resolvePublic('metadata.example', resolve)).rejects.toThrow(/169\.254\.169\.254/);
    await expect(resolvePublic('nowhere.example', resolve)).rejects.toThrow(/ENOTFOUND/);
  });

  it('returns an IP literal as is, without resolving it', async () => {
    const before = resolve.calls;
    expect(await resolvePublic('127.0.0.1', resolve)).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(resolve.calls).toBe(before);
  });

  it('hands a connection exactly the addresses it checked, one or all as asked', async () => {
    const lookup = guardedLookup(resolve);
    const one = await new Promise((done) => lookup('broker.example', {}, (error, address, family) => done({ error, address, family })));
    expect(one).toEqual({ error: null, address: '200.5.112.10', family: 4 });
    const all = await new Promise((done) => lookup('broker.example', { all: true }, (error, addresses) => done({ error, addresses })));
    expect(all).toEqual({
      error: null,
      addresses: [
        { address: '200.5.112.10', family: 4 },
        { address: '2800:3f0::1', family: 6 },
      ],
    });
    const refused = await new Promise<Error | null>((done) => lookup('rebound.example', { all: true }, (error) => done(error)));
    expect(refused).toBeInstanceOf(PrivateAddressError);
  });
});

describe('the guarded fetch of broker connections', () => {
  const servers: http.Server[] = [];
  const fetches: GuardedFetch[] = [];
  const clients: PrimaryClient[] = [];
  let fake: FakePrimaryServer | null = null;
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const guarded of fetches.splice(0)) guarded.close();
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done).closeAllConnections())));
    await fake?.close();
    fake = null;
  });

  /** A local HTTP server; `hits` lists the Host header of each request. */
  async function local(handler: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
    const hits: string[] = [];
    const server = http.createServer((request, response) => {
      hits.push(request.headers.host ?? '');
      handler(request, response);
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return { port: (server.address() as AddressInfo).port, hits };
  }

  /** A lookup that sends every name of `names` to 127.0.0.1 (standing in for a checked public address). */
  const loopbackFor =
    (...names: string[]): LookupFunction =>
    (hostname, options, callback) => {
      if (!names.includes(hostname)) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    };

  const guarded = (lookup: LookupFunction, maxBodyBytes?: number) => {
    const made = createGuardedFetch(lookup, maxBodyBytes);
    fetches.push(made);
    return made.fetch;
  };

  it('connects to the address its lookup gave, keeping the host name for the request', async () => {
    const target = await local((_request, response) => response.writeHead(201, { 'x-auth-token': 'tok' }).end('{"ok":true}'));
    const response = await guarded(loopbackFor('broker.test'))(`http://broker.test:${target.port}/auth/getToken`, {
      method: 'POST',
      headers: { 'X-Username': 'u', 'X-Password': 'p' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-auth-token')).toBe('tok');
    expect(await response.json()).toEqual({ ok: true });
    expect(target.hits).toEqual([`broker.test:${target.port}`]);
  });

  it('makes no connection when the name resolves to a private address', async () => {
    const target = await local((_request, response) => response.end('{}'));
    const lookup = guardedLookup(tableResolver({ 'rebound.example': ['127.0.0.1'] }));
    // undici reports a failed connection as 'fetch failed' with the lookup's error as its cause.
    const failure = await guarded(lookup)(`http://rebound.example:${target.port}/`).then(
      () => null,
      (error: unknown) => error,
    );
    expect((failure as Error | null)?.cause).toBeInstanceOf(PrivateAddressError);
    expect(target.hits).toEqual([]);
  });

  it('does not follow redirects, and refuses an answer over the size limit', async () => {
    const elsewhere = await local((_request, response) => response.end('{}'));
    const redirecting = await local((_request, response) => response.writeHead(307, { location: `http://127.0.0.1:${elsewhere.port}/` }).end());
    const fetchIt = guarded(loopbackFor(), 1024);
    const response = await fetchIt(`http://127.0.0.1:${redirecting.port}/auth/getToken`, { method: 'POST' });
    expect(response.status).toBe(307);
    expect(elsewhere.hits).toEqual([]);

    const large = await local((_request, response) => response.end('x'.repeat(4096)));
    // The cap cuts the body as it arrives: reading it fails.
    await expect(fetchIt(`http://127.0.0.1:${large.port}/`).then((answer) => answer.text())).rejects.toThrow();
  });

  it('gives up on an answer that stalls once the signal aborts', async () => {
    const stalling = await local((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('{"accounts":');
    });
    const started = Date.now();
    const reading = guarded(loopbackFor())(`http://127.0.0.1:${stalling.port}/`, { signal: AbortSignal.timeout(200) }).then((answer) => answer.text());
    await expect(reading).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('carries the Primary API client, REST and websocket, through its lookup', async () => {
    fake = await startFakePrimary();
    const port = new URL(fake.baseUrl).port;
    const lookup = loopbackFor('broker.test');
    const client = createPrimaryClient({
      baseUrl: `http://broker.test:${port}/`,
      ...fake.credentials,
      fetch: guarded(lookup),
      lookup,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    clients.push(client);
    expect((await client.accounts()).map((account) => account.name)).toEqual(['REM2747']);
    client.orderReports.subscribe(['REM2747'], () => {});
    const deadline = Date.now() + 5000;
    while (fake.stats.upgrades === 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
    expect(fake.stats.upgrades).toBe(1);
  });
});
