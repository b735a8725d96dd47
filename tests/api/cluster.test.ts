// Admin questions across processes (server/cluster.ts) on a real Redis, three clusters
// standing for three processes: a question gets every process's answer, the asker's first; a
// process that fails or hangs is left out, the hung one after the timeout. Runs when
// TEST_REDIS_URL is set; the one-process cluster runs always.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalCluster, createRedisCluster, type Cluster } from '../../server/cluster.js';

const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;
if (!redisUrl) console.log('Redis cluster tests skipped: TEST_REDIS_URL is not set');

const clusters: Cluster[] = [];
const errors: Error[] = [];
afterEach(async () => {
  await Promise.all(clusters.splice(0).map((cluster) => cluster.close()));
  errors.splice(0);
});

/** A wait for the answer timeout would outlast the test's own timeout: a test that must not wait fails if it does. */
const NEVER_MS = 60_000;

async function redisClusters(ids: string[], answerTimeoutMs = NEVER_MS): Promise<Cluster[]> {
  const prefix = `visores-cluster-test-${randomBytes(4).toString('hex')}:`;
  const made = ids.map((id) => createRedisCluster(redisUrl!, prefix, id, (error) => void errors.push(error), answerTimeoutMs));
  clusters.push(...made);
  await Promise.all(made.map((cluster) => cluster.ready()));
  return made;
}

describe('one-process cluster', () => {
  it('answers from this process alone, and nothing for a topic nobody answers', async () => {
    const cluster = createLocalCluster('solo');
    clusters.push(cluster);
    cluster.answer('double', (n) => Number(n) * 2);
    expect(await cluster.ask('double', 21)).toEqual([{ processId: 'solo', answer: 42 }]);
    expect(await cluster.ask('unknown')).toEqual([]);
  });
});

describe.runIf(redisUrl)('cluster on Redis', () => {
  it("gathers every process's answer, the asker's first", async () => {
    const [a, b, c] = await redisClusters(['p-b', 'p-c', 'p-a']);
    for (const cluster of [a!, b!, c!]) cluster.answer('who', (payload) => ({ me: cluster.processId, payload }));
    expect(await b!.ask('who', { q: 1 })).toEqual([
      { processId: 'p-c', answer: { me: 'p-c', payload: { q: 1 } } },
      { processId: 'p-a', answer: { me: 'p-a', payload: { q: 1 } } },
      { processId: 'p-b', answer: { me: 'p-b', payload: { q: 1 } } },
    ]);
  });

  it('leaves out a process whose handler fails or that does not know the topic, without waiting', async () => {
    const [a, b, c] = await redisClusters(['a', 'b', 'c']);
    a!.answer('state', () => 'fine');
    b!.answer('state', () => {
      throw new Error('broken');
    });
    // c never registered 'state'. Every process replies (two without an answer), so the asker
    // does not wait for the timeout.
    expect(await a!.askCounted('state')).toEqual({ answers: [{ processId: 'a', answer: 'fine' }], silent: 2 });
    expect(errors.map((error) => error.message)).toEqual(['broken']);
    expect(c).toBeDefined();
  });

  it('answers without a process that hangs, once the timeout is over', async () => {
    const [a, b] = await redisClusters(['a', 'b'], 300);
    a!.answer('state', () => 'fine');
    b!.answer('state', () => new Promise(() => {})); // never answers
    expect(await a!.ask('state')).toEqual([{ processId: 'a', answer: 'fine' }]);
    // The admin is told a process did not answer.
    expect(await a!.askCounted('state')).toEqual({ answers: [{ processId: 'a', answer: 'fine' }], silent: 1 });
  });

  it('stops counting a process once it has closed', async () => {
    const [a, b] = await redisClusters(['a', 'b']);
    a!.answer('state', () => 'a');
    b!.answer('state', () => 'b');
    expect(await a!.askCounted<string>('state')).toMatchObject({ silent: 0 });
    expect((await a!.ask<string>('state')).map((r) => r.answer)).toEqual(['a', 'b']);
    await b!.close();
    // Redis no longer counts it as a listener, so no answer is awaited from it.
    expect((await a!.ask<string>('state')).map((r) => r.answer)).toEqual(['a']);
  });
});
