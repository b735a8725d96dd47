// The Redis hub (issue 4) on a real Redis, two hubs standing for two processes: the feed's
// process hands its own updates to its listeners at once and exactly once (the echo of what
// it published is dropped), and the other process gets them through Redis. Runs when
// TEST_REDIS_URL is set.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketData } from '../../src/protocol/market.js';
import type { Hub } from '../../server/market/hub.js';
import { createRedisHub, originTag } from '../../server/market/redisHub.js';
import { pollUntil } from './helpers.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Redis hub tests skipped: TEST_REDIS_URL is not set');

const hubs: Hub[] = [];
/** Errors the hubs reported while a test ran (none expected). */
const errors: Error[] = [];
afterEach(async () => {
  const reported = errors.splice(0);
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  expect(reported).toEqual([]);
});

type RedisHub = ReturnType<typeof createRedisHub>;

function hubPair(): [RedisHub, RedisHub] {
  const prefix = `visores-hub-test-${randomBytes(4).toString('hex')}:`;
  const fail = (error: Error) => void errors.push(error);
  const pair: [RedisHub, RedisHub] = [createRedisHub(redisUrl!, prefix, fail), createRedisHub(redisUrl!, prefix, fail)];
  hubs.push(...pair);
  return pair;
}

const update = (symbol: string, price: number) => ({
  instrumentId: { marketId: 'ROFEX', symbol },
  marketData: { LA: { price, size: 1, date: price } },
  timestamp: price,
});

describe.runIf(redisUrl)('Redis hub', () => {
  it('delivers a process its own updates at once and once, and another process through Redis', async () => {
    const [feedSide, otherSide] = hubPair();
    const own: [MarketData, string | undefined][] = [];
    const other: [MarketData, string | undefined][] = [];
    feedSide.subscribe('DLR/DIC26', (_symbol, md, json) => own.push([md, json]));
    otherSide.subscribe('DLR/DIC26', (_symbol, md, json) => other.push([md, json]));
    // Both subscriptions reach Redis before anything is published.
    await new Promise((resolve) => setTimeout(resolve, 200));

    feedSide.publish(update('DLR/DIC26', 1500));
    // Synchronously, as the in-process hub does: no round trip for the feed's own clients.
    expect(own.map(([md]) => md.LA?.price)).toEqual([1500]);
    feedSide.publish(update('DLR/DIC26', 1501));

    await pollUntil('both updates on the other process', () => (other.length === 2 ? true : null));
    expect(other.map(([md]) => md.LA?.price)).toEqual([1500, 1501]);
    // The JSON handed on is the state itself, without the publisher's tag.
    expect(other.map(([, json]) => JSON.parse(json!) as MarketData).map((md) => md.LA?.price)).toEqual([1500, 1501]);
    expect(other[1]![1]).toBe(JSON.stringify(other[1]![0]));
    // Let the echoes come back: they are dropped, not delivered a second time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(own.map(([md]) => md.LA?.price)).toEqual([1500, 1501]);
    expect(otherSide.latest('DLR/DIC26')?.LA?.price).toBe(1501);
  });

  it('holds no Redis channel for what it publishes, and takes one when its feed moves to another process', async () => {
    const [first, second] = hubPair();
    const heard: number[] = [];
    first.subscribe('DLR/FEB27', (_symbol, md) => heard.push(md.LA!.price));
    expect(first.redisChannels()).toEqual(['DLR/FEB27']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.publish(update('DLR/FEB27', 10));
    // It publishes the symbol now: its own updates reach its listener without Redis.
    expect(first.redisChannels()).toEqual([]);
    expect(heard).toEqual([10]);

    // The feed stops here and runs in the other process: the channel is taken again.
    first.released(['DLR/FEB27']);
    expect(first.redisChannels()).toEqual(['DLR/FEB27']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    second.publish(update('DLR/FEB27', 11));
    await pollUntil("the other process's update", () => (heard.length === 2 ? true : null));
    expect(heard).toEqual([10, 11]);
    expect(await first.snapshot('DLR/FEB27')).toMatchObject({ LA: { price: 11 } });
  });

  it('answers a snapshot from the shared store for a symbol this process has not heard', async () => {
    const [feedSide, otherSide] = hubPair();
    feedSide.publish(update('DLR/ENE27', 1600));
    // The latest states reach the store in batches, at most LATEST_FLUSH_MS apart.
    const stored = await pollUntil('the stored snapshot', () => otherSide.snapshot('DLR/ENE27'));
    expect(stored.LA?.price).toBe(1600);
  });

  it("counts another process's clients in the demand while they want a symbol, and a prefix's glob characters literally", async () => {
    const [feedSide, otherSide] = hubPair();
    // A hub on a prefix that, read as a glob, would match the pair's channels too.
    const globPrefix = createRedisHub(redisUrl!, 'visores-hub-test-*:', (error) => void errors.push(error));
    hubs.push(globPrefix);
    const stopOwn = feedSide.subscribe('DLR/ENE27', () => {});
    const stopOther = otherSide.subscribe('DLR/DIC26', () => {});
    await pollUntil("the other process's symbol in the demand", async () => ((await feedSide.demand()).includes('DLR/DIC26') ? true : null));
    expect((await feedSide.demand()).sort()).toEqual(['DLR/DIC26', 'DLR/ENE27']);
    expect(await globPrefix.demand()).toEqual([]);
    stopOther();
    await pollUntil('the symbol out of the demand', async () => ((await feedSide.demand()).includes('DLR/DIC26') ? null : true));
    expect(await feedSide.demand()).toEqual(['DLR/ENE27']);
    stopOwn();
    expect(await feedSide.demand()).toEqual([]);
  });

  it('refuses an origin tag that would not split from the JSON', () => {
    expect(originTag()).toMatch(/^[0-9a-f]{8}:$/);
    expect(() => createRedisHub(redisUrl!, 'x:', () => {}, '{bad')).toThrow(/origin tag/);
  });
});
