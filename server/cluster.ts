// The server processes as one, for what an admin asks (issue 4): the feeds, wherever they
// run, and every market socket, whichever process holds it. A question goes to every
// process, this one included, and the answers come back together.
//
// In one process that is a function call. With REDIS_URL, a question is published on one
// channel every process listens to, and each answers on the asker's own channel. PUBLISH
// says how many processes heard the question, so the asker waits for exactly that many
// answers, or until CLUSTER_ANSWER_TIMEOUT_MS for a process that hangs: a question is never
// held up by a dead process, and one that is stopped costs at most the timeout.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { commandClientOptions } from './redisOptions.js';
import { parseJson } from './json.js';

/** How long a question waits for a process that heard it but has not answered. */
export const CLUSTER_ANSWER_TIMEOUT_MS = 2000;

/** `host:pid:random`: unique per process start, readable in admin answers and logs. */
export function newProcessId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface ClusterAnswer<T> {
  processId: string;
  answer: T;
}

type Handler = (payload: unknown) => unknown;

export interface Cluster {
  readonly processId: string;
  /**
   * Asks every process `topic` and resolves with each answer, this process's first. A process
   * whose handler failed, or that did not answer in time, is left out; when Redis cannot be
   * reached, only this process answers.
   */
  ask<T>(topic: string, payload?: unknown): Promise<ClusterAnswer<T>[]>;
  /** As `ask`, and how many processes heard the question but gave no answer (hung, failed, timed out). */
  askCounted<T>(topic: string, payload?: unknown): Promise<{ answers: ClusterAnswer<T>[]; silent: number }>;
  /** What this process answers to `topic`. */
  answer(topic: string, handler: Handler): void;
  /** Resolves once questions from other processes reach this one. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** One process: every question is answered here. */
export function createLocalCluster(processId: string): Cluster {
  const handlers = new Map<string, Handler>();
  async function ask<T>(topic: string, payload?: unknown): Promise<ClusterAnswer<T>[]> {
    const handler = handlers.get(topic);
    if (!handler) return [];
    return [{ processId, answer: (await handler(payload)) as T }];
  }
  return {
    processId,
    ask,
    async askCounted<T>(topic: string, payload?: unknown) {
      return { answers: await ask<T>(topic, payload), silent: 0 };
    },
    answer(topic, handler) {
      handlers.set(topic, handler);
    },
    async ready() {},
    async close() {
      handlers.clear();
    },
  };
}

interface Question {
  id: string;
  from: string;
  topic: string;
  payload: unknown;
}

/** `answer` is left out when the handler failed or the topic is unknown there. */
interface Reply {
  id: string;
  processId: string;
  answer?: unknown;
}

/** Every process on one Redis. */
export function createRedisCluster(
  url: string,
  prefix: string,
  processId: string,
  onError: (error: Error) => void,
  answerTimeoutMs = CLUSTER_ANSWER_TIMEOUT_MS,
): Cluster {
  let closing = false;
  const report = (error: Error) => {
    if (!closing) onError(error);
  };
  const client = new Redis(url, commandClientOptions);
  const subscriber = new Redis(url);
  client.on('error', report);
  subscriber.on('error', report);
  const askChannel = `${prefix}cluster:ask`;
  const replyChannel = (id: string) => `${prefix}cluster:reply:${id}`;
  const handlers = new Map<string, Handler>();
  /** Open questions of this process: the answers so far and how to finish. */
  const open = new Map<string, { replies: Reply[]; expected: number; finish: () => void }>();

  async function reply(question: Question): Promise<void> {
    const handler = handlers.get(question.topic);
    let answer: Reply = { id: question.id, processId };
    if (handler) {
      try {
        answer = { id: question.id, processId, answer: await handler(question.payload) };
      } catch (error) {
        report(error as Error);
      }
    }
    await client.publish(replyChannel(question.from), JSON.stringify(answer));
  }

  subscriber.on('message', (channel: string, text: string) => {
    if (channel === askChannel) {
      const question = parseJson<Question>(text);
      if (question && typeof question.id === 'string' && typeof question.from === 'string' && typeof question.topic === 'string') reply(question).catch(report);
      return;
    }
    const answer = parseJson<Reply>(text);
    const waiting = answer ? open.get(answer.id) : undefined;
    if (!answer || !waiting) return;
    waiting.replies.push(answer);
    if (waiting.replies.length >= waiting.expected) waiting.finish();
  });
  const ready = subscriber.subscribe(askChannel, replyChannel(processId)).then(() => undefined);
  ready.catch(report);

  async function askCounted<T>(topic: string, payload?: unknown): Promise<{ answers: ClusterAnswer<T>[]; silent: number }> {
    await ready;
    const id = randomBytes(12).toString('hex');
    const question: Question = { id, from: processId, topic, payload };
    const replies: Reply[] = [];
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    const entry = { replies, expected: Infinity, finish };
    open.set(id, entry);
    const timer = setTimeout(finish, answerTimeoutMs);
    /** Whether this process's own subscription was counted by PUBLISH (it hears its question). */
    let selfCounted = false;
    try {
      // Every process hears it, this one included; an answer may arrive before PUBLISH returns.
      selfCounted = subscriber.status === 'ready';
      entry.expected = await client.publish(askChannel, JSON.stringify(question));
      selfCounted &&= entry.expected > 0;
      if (replies.length >= entry.expected) finish();
      await done;
    } catch (error) {
      // Redis cannot be reached: this process still answers for itself.
      report(error as Error);
      const handler = handlers.get(topic);
      return { answers: handler ? [{ processId, answer: (await handler(payload)) as T }] : [], silent: 0 };
    } finally {
      clearTimeout(timer);
      open.delete(id);
    }
    const answered = replies.filter((r): r is Reply & { answer: T } => 'answer' in r);
    const fromRedis = answered.length;
    // This process always answers for itself: when its question did not come back to it (its
    // subscription not yet renewed after a Redis cut, so PUBLISH did not count it), it answers
    // here. One that was counted and is late is silent like any other, not asked twice.
    const handler = handlers.get(topic);
    if (handler && !selfCounted && !replies.some((r) => r.processId === processId)) {
      try {
        answered.push({ id, processId, answer: (await handler(payload)) as T });
      } catch (error) {
        report(error as Error);
      }
    }
    // This process first, then the others in a stable order.
    const answers = answered
      .sort((a, b) => (a.processId === processId ? -1 : b.processId === processId ? 1 : a.processId.localeCompare(b.processId)))
      .map((r) => ({ processId: r.processId, answer: r.answer }));
    return { answers, silent: Math.max(0, entry.expected - fromRedis) };
  }

  return {
    processId,
    ready: () => ready,
    askCounted,
    async ask<T>(topic: string, payload?: unknown) {
      return (await askCounted<T>(topic, payload)).answers;
    },
    answer(topic, handler) {
      handlers.set(topic, handler);
    },
    async close() {
      closing = true;
      for (const waiting of open.values()) waiting.finish();
      handlers.clear();
      // Unsubscribed first, so Redis stops counting this process before the connection closes.
      await subscriber.unsubscribe().catch(() => {});
      subscriber.disconnect();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
