// The market socket /ws/market: snapshots and updates keyed by the name the client
// wrote, in the catalogue's spelling (its variants in letter case and spaces are one),
// unsubscribe, bad subscriptions, the subscription limit, a slow reader, and the per-socket
// limits both sockets share.
//
// SQLite only: the market lives in memory and touches the database only to sign in. The
// harness clock is frozen, so the feeds' timers make no ticks; each test stops them anyway and
// publishes updates with feeds.advance() (book updates: trades come only as the clock moves). The same frozen clock means a socket's message-rate
// allowance does not refill by itself: tests that send many messages move the clock.
import type { Socket as NetSocket } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SOCKET_LIMITS } from '../../src/protocol/socket.js';
import type { MarketData } from '../../src/protocol/market.js';
import { marketOf, type Instrument } from '../../server/market/catalogue.js';
import { MARKET_LIMITS } from '../../server/ws/market.js';
import { startServer, type TestServer } from './harness.js';
import { expectPong, nextMessage, nextMessages, openAuthenticatedSocket, pollUntil, sendJson, signIn, waitForClose } from './helpers.js';

const SQLITE = { name: 'sqlite' } as const;

type Message = Record<string, unknown>;
interface SymbolEntry {
  md: MarketData;
  expiration?: string;
  market?: string;
}

const isControl = (message: unknown): boolean => typeof message === 'object' && message != null && 'event' in message;
/** The symbol keys of a data message. */
const keysOf = (message: unknown): string[] =>
  Object.keys(message as Message)
    .filter((key) => key !== 'requestId')
    .sort();

/** Every case variant of `text` (letters upper or lower), up to `limit` of them. */
function caseVariants(text: string, limit: number): string[] {
  const letters = [...text].flatMap((char, i) => (char.toLowerCase() !== char.toUpperCase() ? [i] : []));
  const variants: string[] = [];
  for (let mask = 0; mask < 2 ** letters.length && variants.length < limit; mask++) {
    const chars = [...text.toUpperCase()];
    letters.forEach((at, bit) => {
      if (mask & (1 << bit)) chars[at] = chars[at]!.toLowerCase();
    });
    variants.push(chars.join(''));
  }
  return variants;
}

describe('market socket on sqlite', () => {
  let server: TestServer;
  let token: string;
  const sockets: WebSocket[] = [];

  const market = () => server.app.ctx.market;
  const instrumentOf = (key: string): Instrument => {
    const instrument = market().catalogue.resolve(key);
    expect(instrument, key).not.toBeNull();
    return instrument!;
  };
  /** What the server holds for the instrument a key names, as the socket should send it. */
  const latestEntry = (key: string): SymbolEntry => {
    const instrument = instrumentOf(key);
    const md = market().hub.latest(instrument.instrumentId.symbol)!;
    return instrument.maturityDate ? { md, expiration: instrument.maturityDate } : { md };
  };
  /** The answer to a subscribe: the latest entry, and the market the symbol belongs to. */
  const snapshotEntry = (key: string): SymbolEntry & { market: string } => ({ ...latestEntry(key), market: marketOf(instrumentOf(key)) });
  const dollarFutures = () => market().catalogue.instruments.filter((instrument) => instrument.kind === 'future' && instrument.product === 'DLR');

  /**
   * `count` more instruments in the catalogue (copies of a dollar future under new names), each
   * with a state in the hub: the catalogue's 500 instruments and their aliases are fewer names
   * than the subscription limit, and the exchange's catalogue can be larger.
   */
  function addInstruments(count: number): string[] {
    const model = dollarFutures()[0]!;
    const md = market().hub.latest(model.instrumentId.symbol)!;
    return Array.from({ length: count }, (_, i) => {
      const symbol = `DLR/TEST${i}`;
      market().catalogue.add({ ...model, instrumentId: { ...model.instrumentId, symbol }, aliases: [] }, 1000);
      market().hub.publish({ instrumentId: { marketId: 'ROFX', symbol }, marketData: md, timestamp: server.clock.now() });
      return symbol;
    });
  }

  async function marketSocket(): Promise<WebSocket> {
    const socket = await openAuthenticatedSocket(server.wsUrl('/ws/market'), token);
    sockets.push(socket);
    return socket;
  }

  async function subscribe(socket: WebSocket, symbol: string, requestId?: string): Promise<Message> {
    sendJson(socket, requestId === undefined ? { action: 'subscribe', symbol } : { action: 'subscribe', symbol, requestId });
    return (await nextMessage(socket)) as Message;
  }

  /**
   * Subscribes to every key, in batches the message-rate limit allows (moving the frozen clock
   * between them), and expects a snapshot for each.
   */
  async function subscribeAll(socket: WebSocket, keys: string[]): Promise<void> {
    const batch = SOCKET_LIMITS.burst - 10;
    for (let start = 0; start < keys.length; start += batch) {
      server.clock.advance((1000 * SOCKET_LIMITS.burst) / SOCKET_LIMITS.messagesPerSecond);
      const slice = keys.slice(start, start + batch);
      for (const symbol of slice) sendJson(socket, { action: 'subscribe', symbol });
      const answers = await nextMessages(socket, slice.length);
      answers.forEach((answer, i) => expect(keysOf(answer), JSON.stringify(answer).slice(0, 200)).toEqual([slice[i]]));
    }
  }

  /** The server's end of a socket, to read how much waits in its send buffer. */
  function serverSideOf(socket: WebSocket): WebSocket {
    const localPort = (socket as unknown as { _socket: NetSocket })._socket.localPort;
    const serverSide = [...server.app.app.websocketServer.clients].find(
      (candidate) => (candidate as unknown as { _socket: NetSocket })._socket.remotePort === localPort,
    );
    expect(serverSide).toBeDefined();
    return serverSide!;
  }

  /** Moves a feed one tick at a time until each key's instrument has had a new update. */
  function advanceUntilUpdated(keys: string[]): void {
    const instruments = keys.map(instrumentOf);
    const before = instruments.map((instrument) => market().hub.latest(instrument.instrumentId.symbol));
    for (let ticks = 0; ticks < 100_000; ticks++) {
      const pending = instruments.filter((instrument, i) => market().hub.latest(instrument.instrumentId.symbol) === before[i]);
      if (pending.length === 0) return;
      market().feeds.advance(pending[0]!.feed, 1);
    }
    throw new Error(`No update of ${keys.join(', ')} in 100000 ticks`);
  }

  beforeEach(async () => {
    server = await startServer(SQLITE);
    market().feeds.stopAll();
    ({ token } = await signIn(server.baseUrl));
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.terminate();
    await server.close();
  });

  describe('subscribe', () => {
    it('answers at once with a snapshot keyed by exactly the symbol as written, with the requestId and the expiration', async () => {
      const socket = await marketSocket();
      const future = dollarFutures()[0]!;
      const key = `ROFEX:${future.instrumentId.symbol}`;
      const snapshot = await subscribe(socket, key, 'r1');
      expect(Object.keys(snapshot).sort()).toEqual([key, 'requestId'].sort());
      expect(snapshot.requestId).toBe('r1');
      const entry = snapshot[key] as SymbolEntry;
      expect(entry.expiration).toMatch(/^\d{8}$/);
      expect(entry.expiration).toBe(future.maturityDate);
      expect(entry.md).toMatchObject({
        BI: [{ price: expect.any(Number), size: expect.any(Number) }],
        OF: [{ price: expect.any(Number), size: expect.any(Number) }],
        LA: { price: expect.any(Number), size: expect.any(Number), date: expect.any(Number) },
        SE: { price: expect.any(Number) },
        OI: { size: expect.any(Number) },
      });
      expect(entry.md.BI![0]!.price).toBeLessThan(entry.md.OF![0]!.price);
      expect(entry.market).toBe('rofex');
      expect(entry).toEqual(snapshotEntry(key));
    });

    it('gives the same instrument for the plain form, without a requestId when none was sent', async () => {
      const socket = await marketSocket();
      const symbol = dollarFutures()[2]!.instrumentId.symbol;
      const prefixed = await subscribe(socket, `ROFEX:${symbol}`, 'a');
      const plain = await subscribe(socket, symbol);
      expect(Object.keys(plain)).toEqual([symbol]);
      expect(plain[symbol]).toEqual(prefixed[`ROFEX:${symbol}`]);
    });

    it("takes a symbol's variants in letter case and spaces as one symbol: keyed by the catalogue's spelling, counted once", async () => {
      const socket = await marketSocket();
      const symbol = dollarFutures()[1]!.instrumentId.symbol;
      const key = `ROFEX:${symbol}`;
      const variants = [...caseVariants(key, 20), key.toLowerCase()];
      for (const [i, variant] of variants.entries()) {
        const answer = await subscribe(socket, i % 2 === 0 ? variant : `  ${variant}\t`, `v${i}`);
        expect(keysOf(answer)).toEqual([key]);
        expect(answer[key]).toEqual(snapshotEntry(key));
      }
      const long = 'MERV - XMEV - AL30 - 24hs';
      sendJson(socket, {
        action: 'subscribe',
        symbols: [symbol.toLowerCase(), symbol, 'byma:al30', 'BYMA:al30', 'merv  -  xmev - al30 - 24HS'],
        requestId: 'batch',
      });
      expect(keysOf(await nextMessage(socket))).toEqual([symbol, 'BYMA:AL30', long].sort());
      // One subscription for all the variants of each name; updates keyed by the catalogue's spelling.
      const [listed] = market().clients;
      expect([...listed!.keys()].sort()).toEqual([key, symbol, 'BYMA:AL30', long].sort());
      advanceUntilUpdated([key]);
      const update = (await nextMessage(socket)) as Message;
      expect(keysOf(update)).toEqual(expect.arrayContaining([key, symbol]));
      // Any variant unsubscribes it.
      sendJson(socket, { action: 'unsubscribe', symbol: key.toLowerCase(), requestId: 'off' });
      expect(await nextMessage(socket)).toEqual({ event: 'unsubscribed', symbol: key, requestId: 'off' });
    });

    it('sends no expiration for a share', async () => {
      const socket = await marketSocket();
      const snapshot = await subscribe(socket, 'BYMA:GGAL', 'g');
      const entry = snapshot['BYMA:GGAL'] as SymbolEntry;
      expect(entry).not.toHaveProperty('expiration');
      expect(entry.md.LA?.price).toBeGreaterThan(0);
      expect(entry.market).toBe('byma');
      expect(entry).toEqual(snapshotEntry('BYMA:GGAL'));
    });

    it('answers an unknown symbol with an error naming it, with the requestId; the socket goes on', async () => {
      const socket = await marketSocket();
      const answer = await subscribe(socket, 'ROFEX:DLR/XYZ99', 'u1');
      expect(answer).toEqual({ event: 'error', message: expect.stringContaining('ROFEX:DLR/XYZ99'), symbol: 'ROFEX:DLR/XYZ99', requestId: 'u1' });
      const snapshot = await subscribe(socket, 'BYMA:AL30', 'u2');
      expect(keysOf(snapshot)).toEqual(['BYMA:AL30']);
    });

    it.each([
      [{ action: 'subscribe', requestId: 'm1' }, /symbol/],
      [{ action: 'subscribe', symbol: '', requestId: 'm1' }, /símbolo/],
      [{ action: 'subscribe', symbol: 42, requestId: 'm1' }, /symbol/],
      [{ action: 'subscribe', symbol: 'X'.repeat(101), requestId: 'm1' }, /100/],
      [{ action: 'unsubscribe', requestId: 'm1' }, /symbol/],
    ])('answers %j with an error and stays open', async (message, text) => {
      const socket = await marketSocket();
      sendJson(socket, message);
      expect(await nextMessage(socket)).toEqual({ event: 'error', message: expect.stringMatching(text), requestId: 'm1' });
      await expectPong(socket, 'after');
    });
  });

  describe('updates', () => {
    it('sends updates keyed by each symbol as written, several symbols in one message, each the latest state', async () => {
      const socket = await marketSocket();
      const future = `ROFEX:${dollarFutures()[0]!.instrumentId.symbol}`;
      const plainFuture = dollarFutures()[0]!.instrumentId.symbol;
      for (const key of [future, plainFuture, 'BYMA:AL30']) await subscribe(socket, key);

      advanceUntilUpdated([future, 'BYMA:AL30']);
      const update = (await nextMessage(socket)) as Message;
      expect(keysOf(update)).toEqual([future, plainFuture, 'BYMA:AL30'].sort());
      for (const key of [future, plainFuture, 'BYMA:AL30']) expect(update[key], key).toEqual(latestEntry(key));
      expect(update).not.toHaveProperty('requestId');
      expect(update).not.toHaveProperty('event');
    });

    it('merges many ticks into one message with the latest state', async () => {
      const socket = await marketSocket();
      const keys = dollarFutures().map((future) => future.instrumentId.symbol);
      for (const key of keys) await subscribe(socket, key);
      const coalesced = market().stats.coalesced;
      const updates = new Map<string, number>();
      const stops = keys.map((key) => market().hub.subscribe(key, () => updates.set(key, (updates.get(key) ?? 0) + 1)));

      market().feeds.advance('rofex', 20_000);
      for (const stop of stops) stop();
      const update = (await nextMessage(socket)) as Message;
      expect(keysOf(update)).toEqual([...keys].sort());
      for (const key of keys) expect(update[key], key).toEqual(latestEntry(key));
      // Every update of a symbol after its first was merged into the one pending.
      const merged = [...updates.values()].reduce((sum, count) => sum + count - 1, 0);
      expect(merged).toBeGreaterThan(keys.length * 10);
      expect(market().stats.coalesced - coalesced).toBe(merged);
      // That one message was all: the next thing to arrive is the answer to a ping.
      await expectPong(socket, 'only-one');
    });

    it('sends nothing for a symbol once unsubscribed, while another keeps updating', async () => {
      const socket = await marketSocket();
      const [first, second] = dollarFutures().map((future) => `ROFEX:${future.instrumentId.symbol}`);
      await subscribe(socket, first!);
      await subscribe(socket, second!);

      sendJson(socket, { action: 'unsubscribe', symbol: first, requestId: 'x1' });
      expect(await nextMessage(socket)).toEqual({ event: 'unsubscribed', symbol: first, requestId: 'x1' });

      for (let round = 0; round < 3; round++) {
        advanceUntilUpdated([first!, second!]);
        const update = await nextMessage(socket);
        expect(keysOf(update)).toEqual([second]);
      }
      await expectPong(socket, 'nothing-else');

      // Subscribing again brings it back.
      expect(keysOf(await subscribe(socket, first!))).toEqual([first]);
      advanceUntilUpdated([first!, second!]);
      expect(keysOf(await nextMessage(socket))).toEqual([first, second].sort());
    });

    it('sends a symbol to every socket that watches it, and keeps sockets apart', async () => {
      const one = await marketSocket();
      const two = await marketSocket();
      await subscribe(one, 'BYMA:GD30');
      await subscribe(two, 'BYMA:GD30');
      await subscribe(two, 'BYMA:GGAL');
      advanceUntilUpdated(['BYMA:GD30', 'BYMA:GGAL']);
      expect(keysOf(await nextMessage(one))).toEqual(['BYMA:GD30']);
      expect(keysOf(await nextMessage(two))).toEqual(['BYMA:GD30', 'BYMA:GGAL']);
    });

    it('reaches the sockets of every flush group with the same latest state, a symbol written two ways included', async () => {
      // More sockets than groups, so each group has some; each watches the future as written
      // by the exchange or with the prefix, and a share only half of them.
      const [future] = dollarFutures();
      const plain = future!.instrumentId.symbol;
      const count = MARKET_LIMITS.flushGroups * 2 + 1;
      const watchers: { socket: WebSocket; keys: string[] }[] = [];
      for (let i = 0; i < count; i++) {
        const socket = await marketSocket();
        const keys = [i % 2 === 0 ? plain : `ROFEX:${plain}`, ...(i % 3 === 0 ? ['BYMA:GGAL'] : [])];
        for (const key of keys) await subscribe(socket, key);
        watchers.push({ socket, keys: keys.sort() });
      }
      const frames = watchers.map(({ socket }) => nextMessage(socket));
      advanceUntilUpdated([plain, 'BYMA:GGAL']);
      const received = (await Promise.all(frames)) as Record<string, SymbolEntry>[];
      received.forEach((frame, i) => {
        expect(keysOf(frame), `socket ${i}`).toEqual(watchers[i]!.keys);
        for (const key of watchers[i]!.keys) expect(frame[key], `socket ${i} ${key}`).toEqual(latestEntry(key));
      });
    });
  });

  describe('batch subscribe', () => {
    it('answers a list with ONE message keyed by every known symbol, after an error naming the unknown ones', async () => {
      const socket = await marketSocket();
      const future = `ROFEX:${dollarFutures()[1]!.instrumentId.symbol}`;
      const keys = [future, 'BYMA:AL30', 'DLR/NOPE99', 'BYMA:GGAL', 'BYMA:AL30', 'XYZ'];
      sendJson(socket, { action: 'subscribe', symbols: keys, requestId: 'b1' });
      const [error, snapshot] = (await nextMessages(socket, 2)) as [Message, Message];
      expect(error).toEqual({ event: 'error', message: expect.stringMatching(/DLR\/NOPE99, XYZ/), symbols: ['DLR/NOPE99', 'XYZ'], requestId: 'b1' });
      expect(keysOf(snapshot)).toEqual([future, 'BYMA:AL30', 'BYMA:GGAL'].sort());
      expect(snapshot.requestId).toBe('b1');
      for (const key of [future, 'BYMA:AL30', 'BYMA:GGAL']) expect(snapshot[key], key).toEqual(snapshotEntry(key));

      advanceUntilUpdated([future, 'BYMA:GGAL']);
      expect(keysOf(await nextMessage(socket))).toEqual(expect.arrayContaining([future, 'BYMA:GGAL']));
    });

    it('answers a list of only unknown symbols with the error, then an empty answer carrying the requestId', async () => {
      const socket = await marketSocket();
      sendJson(socket, { action: 'subscribe', symbols: ['NADA1', 'NADA2'], requestId: 'b2' });
      expect(await nextMessages(socket, 2)).toEqual([
        { event: 'error', message: expect.stringContaining('NADA1, NADA2'), symbols: ['NADA1', 'NADA2'], requestId: 'b2' },
        { requestId: 'b2' },
      ]);
    });

    it('unsubscribes a list at once; the others keep updating', async () => {
      const socket = await marketSocket();
      const [first, second, third] = dollarFutures().map((future) => `ROFEX:${future.instrumentId.symbol}`);
      sendJson(socket, { action: 'subscribe', symbols: [first, second, third] });
      expect(keysOf(await nextMessage(socket))).toEqual([first, second, third].sort());
      sendJson(socket, { action: 'unsubscribe', symbols: [first, third], requestId: 'u' });
      expect(await nextMessage(socket)).toEqual({ event: 'unsubscribed', symbols: [first, third], requestId: 'u' });
      for (let round = 0; round < 3; round++) {
        advanceUntilUpdated([first!, second!, third!]);
        expect(keysOf(await nextMessage(socket))).toEqual([second]);
      }
    });

    it('counts a list against the subscription limit: all of it or none', async () => {
      const socket = await marketSocket();
      const keys = addInstruments(MARKET_LIMITS.maxSubscriptions + 1);
      for (let start = 0; start < MARKET_LIMITS.maxSubscriptions - 100; start += 500) {
        const slice = keys.slice(start, Math.min(start + 500, MARKET_LIMITS.maxSubscriptions - 100));
        sendJson(socket, { action: 'subscribe', symbols: slice });
        expect(keysOf(await nextMessage(socket))).toEqual([...slice].sort());
      }
      const over = keys.slice(MARKET_LIMITS.maxSubscriptions - 100);
      expect(over).toHaveLength(101);
      sendJson(socket, { action: 'subscribe', symbols: over, requestId: 'over' });
      expect(await nextMessage(socket)).toEqual({
        event: 'error',
        message: expect.stringContaining(String(MARKET_LIMITS.maxSubscriptions)),
        symbols: over,
        requestId: 'over',
      });
      // Nothing of the refused list was taken: 100 of them still fit.
      sendJson(socket, { action: 'subscribe', symbols: over.slice(0, 100), requestId: 'fits' });
      expect(keysOf(await nextMessage(socket))).toHaveLength(100);
    });

    it.each([
      ['an empty list', { action: 'subscribe', symbols: [], requestId: 'm1' }, /vacía/],
      ['a string for symbols', { action: 'subscribe', symbols: 'BYMA:AL30', requestId: 'm1' }, /lista/],
      ['an empty symbol in the list', { action: 'subscribe', symbols: ['BYMA:AL30', ''], requestId: 'm1' }, /símbolo/],
      ['501 symbols', { action: 'subscribe', symbols: Array.from({ length: 501 }, (_, i) => `S${i}`), requestId: 'm1' }, /500/],
      ['a number in an unsubscribe list', { action: 'unsubscribe', symbols: [7], requestId: 'm1' }, /./],
    ])('answers %s with an error and stays open', async (_label, message, text) => {
      const socket = await marketSocket();
      sendJson(socket, message);
      expect(await nextMessage(socket)).toEqual({ event: 'error', message: expect.stringMatching(text), requestId: 'm1' });
      await expectPong(socket, 'after');
    });
  });

  it(`refuses subscription number ${MARKET_LIMITS.maxSubscriptions + 1} on one socket`, async () => {
    const socket = await marketSocket();
    const keys = addInstruments(MARKET_LIMITS.maxSubscriptions + 2);
    expect(new Set(keys).size).toBe(MARKET_LIMITS.maxSubscriptions + 2);
    const [extra, another] = keys.splice(MARKET_LIMITS.maxSubscriptions);
    await subscribeAll(socket, keys);

    server.clock.advance(10_000);
    expect(await subscribe(socket, extra!, 'over')).toEqual({
      event: 'error',
      message: expect.stringContaining(String(MARKET_LIMITS.maxSubscriptions)),
      symbol: extra,
      requestId: 'over',
    });
    // A symbol already held is not a new subscription: it answers its snapshot again.
    expect(keysOf(await subscribe(socket, keys[7]!))).toEqual([keys[7]]);
    // Giving one up makes room for another.
    sendJson(socket, { action: 'unsubscribe', symbol: keys[0] });
    expect(await nextMessage(socket)).toMatchObject({ event: 'unsubscribed', symbol: keys[0] });
    expect(keysOf(await subscribe(socket, another!))).toEqual([another]);
    expect(await subscribe(socket, keys[0]!, 'again')).toMatchObject({ event: 'error', symbol: keys[0], requestId: 'again' });

    // Each refusal is a breach of the socket's limits: asking on past them closes it (1008).
    for (let strike = 3; strike < SOCKET_LIMITS.strikesToClose; strike++) {
      expect(await subscribe(socket, keys[0]!, `strike${strike}`)).toMatchObject({ event: 'error', requestId: `strike${strike}` });
    }
    sendJson(socket, { action: 'subscribe', symbols: [keys[0], extra], requestId: 'last' });
    expect(await nextMessage(socket)).toEqual({
      event: 'error',
      message: expect.stringMatching(/suscripciones.*abuso/),
      symbols: [keys[0], extra],
      requestId: 'last',
    });
    expect((await waitForClose(socket)).code).toBe(1008);
  });

  it('closes (1008) a client that keeps asking but does not read, once its unsent output passes the cap', async () => {
    const socket = await marketSocket();
    const serverSide = serverSideOf(socket);
    const keys = market()
      .catalogue.instruments.slice(0, 500)
      .map((instrument) => instrument.instrumentId.symbol);
    const answerBytes = Buffer.byteLength(JSON.stringify(Object.fromEntries(keys.map((key) => [key, snapshotEntry(key)]))));
    const written = () => (serverSide as unknown as { _socket: NetSocket })._socket.bytesWritten;

    socket.pause();
    // Ask, within the message-rate allowance, until the kernel's buffers on both ends are full
    // and then what the server holds passes the cap.
    let asks = 0;
    while (serverSide.readyState === WebSocket.OPEN) {
      expect(asks, 'answers before the server gave up on the client').toBeLessThan(2000);
      server.clock.advance(1000);
      for (let i = 0; i < SOCKET_LIMITS.messagesPerSecond; i++) sendJson(socket, { action: 'subscribe', symbols: keys, requestId: `r${asks++}` });
      await pollUntil('the server to answer or close', () => (serverSide.readyState !== WebSocket.OPEN || written() >= asks * answerBytes ? true : null));
    }
    // What it holds for the client stopped growing at the cap: at most one answer over it.
    expect(serverSide.bufferedAmount).toBeLessThanOrEqual(SOCKET_LIMITS.maxUnsentBytes + answerBytes + 1024);

    socket.resume();
    const close = await waitForClose(socket);
    expect(close).toMatchObject({ code: 1008, reason: expect.stringContaining('sin leer') });
    const answered = (await messagesSoFar(socket)).filter((message) => (message as Message).requestId !== undefined);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(asks);
  });

  it("merges a slow reader's updates while its buffer is full: bounded, others unaffected, latest state once it reads", async () => {
    const { catalogue, stats, feeds } = market();
    // Every written form of every instrument: large messages fill the slow reader's buffers sooner.
    const slowKeys = [...new Set(catalogue.instruments.flatMap((instrument) => [instrument.instrumentId.symbol, ...instrument.aliases]))];
    const normalKeys = catalogue.instruments.map((instrument) => instrument.instrumentId.symbol);
    expect(slowKeys.length).toBeLessThanOrEqual(MARKET_LIMITS.maxSubscriptions);

    const slow = await marketSocket();
    const normal = await marketSocket();
    await subscribeAll(slow, slowKeys);
    await subscribeAll(normal, normalKeys);

    const serverSide = serverSideOf(slow);
    const fullMessageBytes = Buffer.byteLength(JSON.stringify(Object.fromEntries(slowKeys.map((key) => [key, latestEntry(key)]))));
    // At most the threshold plus the one message that crossed it.
    const bound = MARKET_LIMITS.sendBufferHighWater + 2 * fullMessageBytes;

    /** One round: ticks on both feeds, then the normal reader's message with the state they left. */
    const round = async (ticks: number) => {
      feeds.advance('rofex', ticks);
      feeds.advance('tv', ticks);
      const update = (await nextMessage(normal)) as Message;
      expect(keysOf(update).length).toBeGreaterThan(0);
      for (const key of keysOf(update)) expect(update[key], key).toEqual(latestEntry(key));
      expect(serverSide.bufferedAmount).toBeLessThanOrEqual(bound);
    };

    slow.pause();
    // Fill the slow reader's socket buffers until the server holds updates back.
    let rounds = 0;
    while (serverSide.bufferedAmount <= MARKET_LIMITS.sendBufferHighWater) {
      expect(++rounds, 'rounds to fill the buffers').toBeLessThan(3000);
      await round(200);
    }

    // Hundreds of thousands of ticks more: memory held for the slow reader stays bounded.
    const sentBefore = stats.messagesSent;
    const coalescedBefore = stats.coalesced;
    const heavyRounds = 100;
    const ticksPerRound = 1500; // per feed
    for (let i = 0; i < heavyRounds; i++) await round(ticksPerRound);
    const totalTicks = heavyRounds * ticksPerRound * 2;
    expect(totalTicks).toBeGreaterThanOrEqual(300_000);
    // The normal reader got one message a round; the slow one next to nothing.
    const slowSends = stats.messagesSent - sentBefore - heavyRounds;
    expect(slowSends).toBeGreaterThanOrEqual(0);
    expect(slowSends).toBeLessThan(heavyRounds / 4);
    // The normal reader merges less than one update a tick; the slow one's keys (two or more
    // per instrument) merge more than one each tick.
    expect(stats.coalesced - coalescedBefore).toBeGreaterThan(totalTicks);

    // Once it reads again, it ends with the latest state of every symbol it watches.
    slow.resume();
    const received = new Map<string, unknown>();
    const upToDate = () => slowKeys.every((key) => isDeepStrictEqual(received.get(key), latestEntry(key)));
    // Fails by timing out if the server dropped the merged state instead of sending it.
    while (!upToDate()) {
      const message = await nextMessage(slow);
      expect(isControl(message), JSON.stringify(message).slice(0, 200)).toBe(false);
      // A snapshot also names the market; updates do not.
      for (const key of keysOf(message)) {
        const { market: _market, ...entry } = (message as Record<string, SymbolEntry>)[key]!;
        received.set(key, entry);
      }
    }
    for (const key of slowKeys) expect(received.get(key), key).toEqual(latestEntry(key));
  });
});

describe.each(['/ws/market', '/ws/positions'])('limits of %s on sqlite', (socketPath) => {
  let server: TestServer;
  let socket: WebSocket;
  const MAX = SOCKET_LIMITS.maxMessageBytes;

  /** A ping of exactly `bytes` bytes. */
  const pingOfSize = (bytes: number, requestId: string) => {
    const base = JSON.stringify({ action: 'ping', requestId, pad: '' }).length;
    const text = JSON.stringify({ action: 'ping', requestId, pad: 'x'.repeat(bytes - base) });
    expect(Buffer.byteLength(text)).toBe(bytes);
    return text;
  };

  beforeEach(async () => {
    server = await startServer(SQLITE);
    server.app.ctx.market.feeds.stopAll();
    const { token } = await signIn(server.baseUrl);
    socket = await openAuthenticatedSocket(server.wsUrl(socketPath), token);
  });
  afterEach(async () => {
    socket.terminate();
    await server.close();
  });

  it(`accepts a message of ${MAX / 1024} KB; refuses a larger one with an error and stays open`, async () => {
    socket.send(pingOfSize(MAX, 'at-limit'));
    expect(await nextMessage(socket)).toMatchObject({ event: 'pong', requestId: 'at-limit' });

    socket.send(pingOfSize(MAX + 1, 'over'));
    expect(await nextMessage(socket)).toEqual({ event: 'error', message: expect.stringContaining(`${MAX / 1024} KB`) });
    await expectPong(socket, 'still-open');
  });

  it('closes the socket (1009) on a message over the 1 MB hard cap', async () => {
    socket.send(pingOfSize(1024 * 1024 + 1, 'huge'));
    expect((await waitForClose(socket)).code).toBe(1009);
  });

  it(`answers messages beyond a burst of ${SOCKET_LIMITS.burst} with "Demasiados mensajes"; the allowance refills with time`, async () => {
    // The auth message used one of the burst.
    const count = SOCKET_LIMITS.burst;
    for (let i = 0; i < count; i++) sendJson(socket, { action: 'ping', requestId: `p${i}` });
    const answers = (await nextMessages(socket, count)) as Message[];
    const pongs = answers.filter((answer) => answer.event === 'pong');
    const errors = answers.filter((answer) => answer.event === 'error');
    expect(pongs.map((pong) => pong.requestId)).toEqual(Array.from({ length: count - 1 }, (_, i) => `p${i}`));
    expect(errors).toEqual([{ event: 'error', message: expect.stringContaining('Demasiados mensajes') }]);
    expect(socket.readyState).toBe(WebSocket.OPEN);

    // One second gives messagesPerSecond more.
    server.clock.advance(1000);
    const more = SOCKET_LIMITS.messagesPerSecond + 1;
    for (let i = 0; i < more; i++) sendJson(socket, { action: 'ping', requestId: `q${i}` });
    const later = (await nextMessages(socket, more)) as Message[];
    expect(later.filter((answer) => answer.event === 'pong')).toHaveLength(SOCKET_LIMITS.messagesPerSecond);
    expect(later.filter((answer) => answer.event === 'error')).toEqual([{ event: 'error', message: expect.stringContaining('Demasiados mensajes') }]);
  });

  it(`closes with 1008 after ${SOCKET_LIMITS.strikesToClose} breaches within a minute, of either kind`, async () => {
    for (let i = 1; i < SOCKET_LIMITS.strikesToClose; i++) {
      socket.send(pingOfSize(MAX + 1, `big${i}`));
      expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
    }
    await expectPong(socket, 'still-open');
    // Spend the rest of the burst; the message after it is the fifth breach.
    const remaining = SOCKET_LIMITS.burst - 2; // auth and the ping above
    for (let i = 0; i <= remaining; i++) sendJson(socket, { action: 'ping', requestId: `p${i}` });
    const close = await waitForClose(socket);
    expect(close.code).toBe(1008);
    const errors = (await messagesSoFar(socket)).filter((message) => (message as Message).event === 'error');
    expect(errors.at(-1)).toMatchObject({ message: expect.stringMatching(/Demasiados mensajes.*abuso/) });
  });

  it('forgets breaches older than a minute', async () => {
    const breach = async (requestId: string) => {
      socket.send(pingOfSize(MAX + 1, requestId));
      expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
    };
    for (let i = 1; i < SOCKET_LIMITS.strikesToClose; i++) await breach(`old${i}`);
    server.clock.advance(60_001);
    // The old breaches are over a minute old: these start a new count.
    for (let i = 1; i < SOCKET_LIMITS.strikesToClose; i++) await breach(`new${i}`);
    await expectPong(socket, 'still-open');
    socket.send(pingOfSize(MAX + 1, 'last'));
    const close = await waitForClose(socket);
    expect(close.code).toBe(1008);
  });
});

/** The messages a closed socket received and nobody consumed yet. */
async function messagesSoFar(socket: WebSocket): Promise<unknown[]> {
  const messages: unknown[] = [];
  for (;;) {
    try {
      messages.push(await nextMessage(socket));
    } catch {
      return messages;
    }
  }
}
