// The positions socket /ws/positions (issue 4; spec section 7): subscribe to a watched
// account's channel, pushes of each new snapshot, errors for channels one may not have,
// unsubscribe, and the rule that a snapshot too large to push goes without its data.
//
// SQLite only: the broker keeps its state in memory; the database only serves sign-in. The
// harness clock is frozen, so the market does not move by itself; broker.tradeAll() makes every
// watched paper account fill an order and push. The broker's one-second timer may also fill at
// random and push, so the tests never count pushes: they check that a push follows a change,
// that consecutive pushes differ, and that what is pushed is what GET positions answers.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { AdminPositionsResponse, ConnectResponse, PositionsPushMessage, type PositionsPush, type PositionsSnapshot } from '../../src/protocol/broker.js';
import { MAX_PUSHED_SNAPSHOT_BYTES, pushOf } from '../../server/ws/positions.js';
import { databaseTargets, startServer, type TestServer } from './harness.js';
import {
  ADMIN,
  createUser,
  expectBody,
  expectPong,
  expectShape,
  expectSuccess,
  nextMessage,
  nextMessageWhere,
  openAuthenticatedSocket,
  pollUntil,
  positionsOf,
  sendJson,
  session,
  type Session,
} from './helpers.js';

const [sqlite] = databaseTargets();

const channelOf = (account: string) => `POS:primary:${account}`;

type Message = Record<string, unknown>;
const isEvent = (message: unknown, event: string) => typeof message === 'object' && message != null && (message as Message).event === event;

describe('positions socket on sqlite', () => {
  let server: TestServer;
  let admin: Session;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    server = await startServer(sqlite!);
    admin = await session(server, ADMIN);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.terminate();
  });
  afterAll(async () => {
    await server?.close();
  });

  const broker = () => server.app.ctx.broker;

  async function positionsSocket(user: Session): Promise<WebSocket> {
    const socket = await openAuthenticatedSocket(server.wsUrl('/ws/positions'), user.token);
    sockets.push(socket);
    return socket;
  }

  /** A fresh user whose paper account is watched and has its first snapshot. */
  async function watchedUser(): Promise<{ user: Session; account: string }> {
    const user = await createUser(server, admin.token);
    const connected = expectBody(await user.api.post('/api/primary/sessions/connect', { url: 'sim://' }), ConnectResponse);
    const account = connected.accounts[0]!;
    expectSuccess(await user.api.post(`/api/accounts/${account}/watch`, { sessionId: connected.sessionId }));
    await positionsOf(user, account);
    return { user, account };
  }

  async function subscribe(socket: WebSocket, account: string): Promise<Message> {
    sendJson(socket, { action: 'subscribe', symbol: channelOf(account) });
    return (await nextMessage(socket)) as Message;
  }

  /** The push a message carries for the channel, checked for shape; null for other messages. */
  function pushIn(message: unknown, channel: string): PositionsPush | null {
    if (typeof message !== 'object' || message == null || 'event' in message) return null;
    expect(Object.keys(message)).toEqual([channel]);
    const push = expectShape(PositionsPushMessage, message, 'the push')[channel]!;
    expect(Object.keys(push).sort()).toEqual(['as_of', 'data', 'etag', 'type']);
    expect(push.data!.etag).toBe(push.etag);
    expect(push.data!.as_of).toBe(push.as_of);
    return push;
  }

  /** Subscribers of an account, as the admin's positions page counts them. */
  async function subscribersOf(account: string): Promise<number> {
    const body = expectBody(await admin.api.get('/api/admin/positions'), AdminPositionsResponse);
    return body.data.flatMap((entry) => entry.accounts).find((entry) => entry.account === account)!.subscribers;
  }

  it('acknowledges a subscription and pushes each new snapshot, the same GET positions answers', async () => {
    const { user, account } = await watchedUser();
    const channel = channelOf(account);
    const socket = await positionsSocket(user);
    expect(await subscribe(socket, account)).toEqual({ event: 'subscribed', symbol: channel });
    expect(await subscribersOf(account)).toBe(1);

    const pushes: PositionsPush[] = [];
    /** Reads pushes until one carries `etag`; any other message fails the test. */
    const pushWithEtag = async (etag: string): Promise<PositionsPush> => {
      for (;;) {
        const push = pushIn(await nextMessage(socket), channel);
        expect(push, 'only pushes arrive on this socket').not.toBeNull();
        pushes.push(push!);
        if (push!.etag === etag) return push!;
      }
    };

    for (let round = 0; round < 3; round++) {
      const before = await positionsOf(user, account);
      await broker().tradeAll();
      // A push follows the change; it is the snapshot GET answers (retried when the broker's
      // timer filled again in between, which pushes too).
      const { snapshot, push } = await pollUntil('a push equal to GET positions', async () => {
        const current = await positionsOf(user, account);
        if (current.etag === before.etag) return null;
        return { snapshot: current, push: await pushWithEtag(current.etag) };
      });
      expect(snapshot.etag).not.toBe(before.etag);
      expect(push.data).toEqual(snapshot);
      expect(push.as_of).toBe(snapshot.as_of);
    }
    expect(pushes.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < pushes.length; i++) expect(pushes[i]!.etag, `push ${i}`).not.toBe(pushes[i - 1]!.etag);

    // Subscribing twice to the same channel acknowledges again but does not double the pushes.
    expect(await subscribe(socket, account)).toEqual({ event: 'subscribed', symbol: channel });
    expect(await subscribersOf(account)).toBe(1);
  });

  it('refuses channels the user does not watch and malformed ones, and the socket goes on', async () => {
    const { user } = await watchedUser();
    const socket = await positionsSocket(user);

    expect(await subscribe(socket, 'DEMO-NOBODY')).toEqual({
      event: 'error',
      symbol: channelOf('DEMO-NOBODY'),
      message: 'La cuenta DEMO-NOBODY no está siendo observada: llame antes a /watch',
    });
    for (const symbol of ['XYZ', 'POS:primary:', 'pos:primary:DEMO-X', 'POS:other:DEMO-X', `POS:primary:${'A'.repeat(300)}`]) {
      sendJson(socket, { action: 'subscribe', symbol });
      const message = (await nextMessage(socket)) as Message;
      expect(message, symbol).toMatchObject({ event: 'error', message: expect.any(String) });
      expect(String(message.message).trim(), symbol).not.toBe('');
    }
    sendJson(socket, { action: 'subscribe' });
    expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
    sendJson(socket, { action: 'subscribe', symbol: 42 });
    expect(await nextMessage(socket)).toMatchObject({ event: 'error' });
    await expectPong(socket, 'still-open');
  });

  it('stops pushing after unsubscribe', async () => {
    const { user, account } = await watchedUser();
    const channel = channelOf(account);
    const socket = await positionsSocket(user);
    expect(await subscribe(socket, account)).toEqual({ event: 'subscribed', symbol: channel });

    sendJson(socket, { action: 'unsubscribe', symbol: channel });
    // A push from the broker's own timer may come before the acknowledgment.
    const { message, skipped } = await nextMessageWhere(socket, (m) => isEvent(m, 'unsubscribed'));
    expect(message).toEqual({ event: 'unsubscribed', symbol: channel });
    for (const other of skipped) expect(pushIn(other, channel)).not.toBeNull();
    expect(await subscribersOf(account)).toBe(0);

    const before = await positionsOf(user, account);
    await broker().tradeAll();
    await broker().tradeAll();
    expect((await positionsOf(user, account)).etag).not.toBe(before.etag);
    // Pushes are sent while tradeAll runs: any would reach the socket before the pong.
    await expectPong(socket, 'after-unsubscribe');
  });

  it("does not let a user subscribe to another user's account", async () => {
    const owner = await watchedUser();
    const { user: intruder } = await watchedUser();
    const socket = await positionsSocket(intruder);

    expect(await subscribe(socket, owner.account)).toEqual({
      event: 'error',
      symbol: channelOf(owner.account),
      message: `La cuenta ${owner.account} no está siendo observada: llame antes a /watch`,
    });
    expect(await subscribersOf(owner.account)).toBe(0);
    await broker().tradeAll();
    await expectPong(socket, 'nothing-pushed');
  });

  it('drops the subscriptions of a socket that closes', async () => {
    const { user, account } = await watchedUser();
    const socket = await positionsSocket(user);
    expect(await subscribe(socket, account)).toMatchObject({ event: 'subscribed' });
    const second = await positionsSocket(user);
    expect(await subscribe(second, account)).toMatchObject({ event: 'subscribed' });
    expect(await subscribersOf(account)).toBe(2);

    socket.close();
    await pollUntil('the closed socket to unsubscribe', async () => ((await subscribersOf(account)) === 1 ? true : null));
    second.close();
    await pollUntil('the second socket to unsubscribe', async () => ((await subscribersOf(account)) === 0 ? true : null));
  });

  describe('pushOf', () => {
    const snapshotWith = (count: number): PositionsSnapshot => ({
      account: 'DEMO-BIG',
      broker: 'primary',
      as_of: '2026-11-22T16:11:04.214Z',
      etag: 'etag-of-the-snapshot',
      positions: Array.from({ length: count }, (_, i) => ({
        instrument: { symbolReference: `MERV - XMEV - T${i} - 24hs`, settlType: 1 },
        symbol: `MERV - XMEV - T${i} - 24hs`,
        buySize: 100,
        buyPrice: 1234.5,
        sellSize: 0,
        sellPrice: 0,
        totalDailyDiff: 10.25,
        totalDiff: -200.75,
        tradingSymbol: `MERV - XMEV - T${i} - 24hs`,
        originalBuyPrice: 1234.5,
        originalSellPrice: 0,
      })),
    });

    it('pushes the data of a snapshot under the limit', () => {
      const small = snapshotWith(3);
      expect(JSON.stringify(small).length).toBeLessThan(MAX_PUSHED_SNAPSHOT_BYTES);
      expect(pushOf(small)).toEqual({ type: 'positions', data: small, etag: small.etag, as_of: small.as_of });
    });

    it('announces a snapshot over the limit without its data', () => {
      let count = 3;
      while (JSON.stringify(snapshotWith(count)).length <= MAX_PUSHED_SNAPSHOT_BYTES) count *= 2;
      const big = snapshotWith(count);
      const push = pushOf(big);
      expect(push).toEqual({ type: 'positions', etag: big.etag, as_of: big.as_of });
      expect('data' in push).toBe(false);
    });

    it('measures the limit in bytes of the JSON sent, not in characters', () => {
      // 'Ñ' is one character and two bytes in UTF-8: this snapshot is under the limit in
      // characters and over it in bytes.
      const snapshot = snapshotWith(1);
      const padding = MAX_PUSHED_SNAPSHOT_BYTES - JSON.stringify(snapshot).length - 20;
      const wide = { ...snapshot, account: `DEMO-${'Ñ'.repeat(padding)}` };
      expect(JSON.stringify(wide).length).toBeLessThanOrEqual(MAX_PUSHED_SNAPSHOT_BYTES);
      expect(Buffer.byteLength(JSON.stringify(wide))).toBeGreaterThan(MAX_PUSHED_SNAPSHOT_BYTES);
      expect(pushOf(wide)).toEqual({ type: 'positions', etag: wide.etag, as_of: wide.as_of });
    });
  });
});
