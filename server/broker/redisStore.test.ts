// The Redis broker store against a real Redis (TEST_REDIS_URL): two stores stand for two
// processes. Skipped, with a printed reason, without one.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { PositionsSnapshot } from '../../src/protocol/broker.js';
import { createRedisBrokerStore } from './redisStore.js';
import type { BrokerStore, SessionRecord } from './store.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Redis broker store tests skipped: TEST_REDIS_URL is not set');

const prefix = `visores-unit-${randomBytes(4).toString('hex')}:`;
const stores: BrokerStore[] = [];
const onError = (error: Error) => {
  throw error;
};

async function open(processId: string): Promise<BrokerStore> {
  const store = createRedisBrokerStore(redisUrl!, prefix, processId, onError);
  stores.push(store);
  await store.ready();
  return store;
}

afterAll(async () => {
  for (const store of stores) await store.close();
  if (redisUrl) {
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }
});

const snapshot = (etag: string): PositionsSnapshot => ({ account: 'ACC:1/x', broker: 'primary', as_of: '2026-11-22T16:11:04.214Z', etag, positions: [] });

describe.runIf(redisUrl)('Redis broker store', () => {
  it('shares records, pushes and subscriber counts between processes', async () => {
    const owner = await open('owner');
    const other = await open('other');
    const record: SessionRecord = { id: 's1', userId: 'u1', username: 'ana', url: 'sim://', accounts: ['ACC:1/x'], owner: 'owner', createdAt: 1 };
    await owner.saveSession(record);
    expect(await other.session('s1')).toEqual(record);
    expect((await other.sessions()).map((session) => session.id)).toEqual(['s1']);

    await owner.saveAccount({ userId: 'u1', account: 'ACC:1/x', sessionId: 's1', owner: 'owner', watchingFills: false, snapshot: null, lastError: null });
    expect(await other.account('u1', 'ACC:1/x')).toMatchObject({ owner: 'owner', snapshot: null });
    expect(await other.account('u2', 'ACC:1/x')).toBeNull();
    expect(await other.fills('u1', 'ACC:1/x')).toBeNull();

    const received: string[] = [];
    const unsubscribe = await other.subscribe('u1', 'ACC:1/x', (pushed) => received.push(pushed.etag));
    expect(await owner.subscribers('u1', 'ACC:1/x')).toBe(1);
    expect(await owner.subscribers('u2', 'ACC:1/x')).toBe(0);
    owner.publish('u2', 'ACC:1/x', snapshot('not-mine'));
    owner.publish('u1', 'ACC:1/x', snapshot('e1'));
    await expect.poll(() => received).toEqual(['e1']);

    await unsubscribe();
    expect(await owner.subscribers('u1', 'ACC:1/x')).toBe(0);
    owner.publish('u1', 'ACC:1/x', snapshot('e2'));
    // A round trip through the same Redis after the publish: e2 would have arrived by now.
    const marker = await other.subscribe('u1', 'ACC:1/x', (pushed) => received.push(`marker:${pushed.etag}`));
    owner.publish('u1', 'ACC:1/x', snapshot('e3'));
    await expect.poll(() => received).toContain('marker:e3');
    expect(received).toEqual(['e1', 'marker:e3']);
    await marker();
  });

  it("runs commands in the owner's process and knows when no process listens", async () => {
    const owner = await open('cmd-owner');
    const other = await open('cmd-other');
    const seen: string[] = [];
    owner.onCommand(async (command) => {
      seen.push(`${command.userId}/${command.account}/${command.fills}`);
      return command.account === 'NOPE' ? { ok: false, kind: 'not_found', message: 'La cuenta NOPE no existe o no es suya' } : { ok: true };
    });
    expect(await other.send('cmd-owner', { userId: 'u1', account: 'A', sessionId: 's', fills: true })).toEqual({ ok: true });
    expect(await other.send('cmd-owner', { userId: 'u1', account: 'NOPE', sessionId: 's', fills: false })).toEqual({
      ok: false,
      kind: 'not_found',
      message: 'La cuenta NOPE no existe o no es suya',
    });
    expect(seen).toEqual(['u1/A/true', 'u1/NOPE/false']);
    expect(await other.send('no-such-process', { userId: 'u1', account: 'A', sessionId: 's', fills: false })).toBeNull();
  });

  it("takes its own records along when it closes, and leaves others'", async () => {
    const leaving = createRedisBrokerStore(redisUrl!, prefix, 'leaving', onError);
    await leaving.ready();
    const staying = await open('staying');
    await leaving.saveSession({ id: 'gone', userId: 'u9', username: 'x', url: 'sim://', accounts: ['A'], owner: 'leaving', createdAt: 2 });
    await leaving.saveAccount({
      userId: 'u9',
      account: 'A',
      sessionId: 'gone',
      owner: 'leaving',
      watchingFills: true,
      snapshot: snapshot('e'),
      lastError: null,
    });
    await leaving.saveFills('u9', 'A', []);
    await staying.saveSession({ id: 'kept', userId: 'u9', username: 'x', url: 'sim://', accounts: ['B'], owner: 'staying', createdAt: 3 });
    expect(await staying.fills('u9', 'A')).toEqual([]);
    await leaving.close();
    expect(await staying.session('gone')).toBeNull();
    expect(await staying.account('u9', 'A')).toBeNull();
    expect(await staying.fills('u9', 'A')).toBeNull();
    expect(await staying.session('kept')).not.toBeNull();
    expect(await staying.send('leaving', { userId: 'u9', account: 'A', sessionId: 'gone', fills: false })).toBeNull();
  });
});
