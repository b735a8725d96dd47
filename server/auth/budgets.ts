// What password checks may cost. Each scrypt check (32 MiB, ~100 ms on libuv's thread pool,
// which file reads and DNS look-ups share) is paid for out of budgets taken BEFORE it runs, so
// a refusal costs no hashing:
//  - this process runs at most `loginConcurrency` checks at once and lets `loginQueue` wait for
//    a turn, given to the addresses in turn, one address holding at most `loginPerAddress`
//    checks running and waiting: the global budget, shared fairly. It is per process because what it guards is: each process has
//    its own thread pool and CPU. (A count of checks across processes would guard nothing more
//    and would let a flood from many addresses refuse everyone everywhere.)
//  - one address may fail `loginIpMaxFailures` checks a window whatever the username (password
//    spraying), one account `loginMaxFailures` current-password checks (a stolen token).
//  - one signed-in user may make `userRequests` requests a window: the cost of the requests
//    that are not password checks (lists, saves of large sections) as one user sends them.
// With Redis these failure budgets are one count for every process (rate-limiter-flexible's
// RateLimiterRedis), or N processes would give N times the guesses; when Redis cannot be
// reached each process counts in memory from the first command that fails until a ping answers
// again, so an outage neither locks everyone out, nor leaves the checks unbounded, nor makes
// each request wait for Redis's timeout.
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface BudgetSettings {
  loginMaxFailures: number;
  loginWindowMs: number;
  loginIpMaxFailures: number;
  loginConcurrency: number;
  loginQueue: number;
  /** Checks one address may have running and waiting at once in this process. */
  loginPerAddress: number;
  /** Requests one signed-in user may make per window, from any process… */
  userRequests: number;
  /** …the window, in milliseconds. */
  userRequestsWindowMs: number;
  redisUrl: string | null;
  redisPrefix: string;
}

export type Taken = { ok: true; /** Gives the point back (the check passed, or never ran). */ refund(): Promise<void> };
export type Refused = { ok: false; retryAfterMs: number };

/** What `CheckQueue.run` answers when every slot and every waiting place is taken. */
export const BUSY = Symbol('busy');

/**
 * A bounded semaphore, fair between keys (client addresses): `concurrency` works at once,
 * `maxWaiting` queued, the rest refused. A freed slot goes to the key served least recently
 * (the keys take turns), each key's works in order, and one key holds at most `maxPerKey` works running and waiting:
 * a flood from one address waits behind its own works and cannot fill the queue. One address
 * never runs in every slot either (with two or more, it leaves one to the others), so a sign-in
 * from anywhere else starts at once, beside the flood's checks, instead of after one of them.
 * Works without a key (an admin setting a password) are not held to that.
 */
export interface CheckQueue {
  /** Why a new work of `key` would be refused now: the key holds its share, or every place is taken; null when it would be taken. */
  full(key?: string): 'key' | 'queue' | null;
  /** A fair guess of when a place frees up: the works ahead, at the recent time per work. */
  retryAfterMs(): number;
  run<T>(work: () => Promise<T>, key?: string): Promise<T | typeof BUSY>;
  /** Works running and waiting now, and started since the process began. */
  stats(): { running: number; waiting: number; started: number };
}

export function createCheckQueue(concurrency: number, maxWaiting: number, maxPerKey = Number.POSITIVE_INFINITY): CheckQueue {
  let running = 0;
  let waitingCount = 0;
  let started = 0;
  /** Recent milliseconds per work, smoothed; a first guess of a real-cost scrypt check. */
  let averageMs = 100;
  /** Works of each key running now, and how many one key may run at once. */
  const runningOf = new Map<string, number>();
  const runningCap = (key: string) => (key === '' ? concurrency : Math.max(1, concurrency - 1));
  const mayStart = (key: string) => (runningOf.get(key) ?? 0) < runningCap(key);
  const addRunning = (key: string, delta: number) => {
    const next = (runningOf.get(key) ?? 0) + delta;
    if (next > 0) runningOf.set(key, next);
    else runningOf.delete(key);
  };
  /** Each key's waiting works, in order. */
  const waiting = new Map<string, Array<() => void>>();
  /** Works of each key running or waiting. */
  const held = new Map<string, number>();
  /** When each key holding works last started one (a count of starts): the turn is the least recently served key's. */
  const lastStarted = new Map<string, number>();

  const hold = (key: string, delta: number) => {
    const next = (held.get(key) ?? 0) + delta;
    if (next > 0) held.set(key, next);
    else {
      held.delete(key);
      lastStarted.delete(key);
    }
  };
  /** The next waiting work that may start: the first of the key served least recently. */
  const nextWaiting = (): (() => void) | undefined => {
    let turn: string | undefined;
    for (const key of waiting.keys()) {
      if (!mayStart(key)) continue;
      if (turn === undefined || (lastStarted.get(key) ?? -1) < (lastStarted.get(turn) ?? -1)) turn = key;
    }
    if (turn === undefined) return undefined;
    const queue = waiting.get(turn)!;
    const next = queue.shift()!;
    if (queue.length === 0) waiting.delete(turn);
    waitingCount--;
    // Served and running from now: a slot freed before this work resumes goes to another key.
    lastStarted.set(turn, started);
    addRunning(turn, 1);
    return next;
  };
  const full = (key = ''): 'key' | 'queue' | null =>
    (held.get(key) ?? 0) >= maxPerKey ? 'key' : running >= concurrency && waitingCount >= maxWaiting ? 'queue' : null;

  return {
    full,
    retryAfterMs() {
      return Math.max(1000, Math.ceil(((running + waitingCount) / concurrency) * averageMs));
    },
    async run<T>(work: () => Promise<T>, key = ''): Promise<T | typeof BUSY> {
      if (full(key)) return BUSY;
      hold(key, 1);
      if (running < concurrency && mayStart(key)) {
        running++;
        addRunning(key, 1);
      } else {
        waitingCount++;
        await new Promise<void>((resolve) => {
          const queue = waiting.get(key);
          if (queue) queue.push(resolve);
          else waiting.set(key, [resolve]);
        });
      }
      // A finished work hands its slot to the next waiting one: `running` stays as it is.
      lastStarted.set(key, started++);
      const begun = performance.now();
      try {
        return await work();
      } finally {
        averageMs = 0.8 * averageMs + 0.2 * (performance.now() - begun);
        addRunning(key, -1);
        hold(key, -1);
        const next = nextWaiting();
        if (next) next();
        else running--;
      }
    },
    stats: () => ({ running, waiting: waitingCount, started }),
  };
}

/** The eight groups of an IPv6 address (an embedded IPv4 tail as the last two). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0]!.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => parseInt(group, 16));
}

/**
 * An address as the budgets count it: IPv4 as it is (also written IPv4-mapped, ::ffff:a.b.c.d),
 * IPv6 by its /64, which one subscriber usually holds whole (counting each address would give
 * them 2^64 budgets).
 */
export function addressKey(ip: string): string {
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** User text in a key: fixed length, nothing to escape. */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

export interface Budgets {
  checks: CheckQueue;
  /** One failed check (reserved before it runs) from this address, whatever the username. */
  takeAddress(ip: string): Promise<Taken | Refused>;
  /** One failed current-password check of this account. */
  takeAccount(userId: string): Promise<Taken | Refused>;
  /** One request of a signed-in user (a user sending faster than a person works is refused, not served). */
  takeRequest(userId: string): Promise<Taken | Refused>;
  /**
   * True for the first refusal of `kind` for `key` in a window (and when that cannot be told),
   * so that a flood of refusals writes one operator-log row, not one each.
   */
  firstRefusal(kind: string, key: string): Promise<boolean>;
  /**
   * Resolves once Redis is connected (at once without it): before that, and whenever it is
   * away, the budgets count in this process's memory. Rejects when Redis did not answer in time.
   */
  ready(): Promise<void>;
  /** Whether the budgets count in memory because Redis is away (always false without Redis). */
  redisAway(): boolean;
  close(): Promise<void>;
}

/** How long a start waits for Redis before the budgets begin in memory. */
const READY_TIMEOUT_MS = 5000;
/** While Redis is away, how often it is asked whether it is back. */
const REDIS_PROBE_MS = 500;

export function createBudgets(settings: BudgetSettings, onRedisError: (error: Error) => void = () => {}, readyTimeoutMs = READY_TIMEOUT_MS): Budgets {
  let closing = false;
  // Its own connection: no offline queue (a command while Redis is away fails at once, and the
  // memory answers) and a short command timeout (a Redis that hangs does too); a command that
  // timed out is not sent again on the next connection, as it was already counted in memory.
  const redis = settings.redisUrl
    ? new Redis(settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000, autoResendUnfulfilledCommands: false })
    : null;
  redis?.on('error', (error: Error) => {
    if (!closing) onRedisError(error);
  });

  // Redis away: the first command that fails (refused, or no answer within the command
  // timeout, as through a partition where the connection still looks open) sends every budget
  // to memory at once, and a ping every REDIS_PROBE_MS brings them back when it answers. Without
  // it every request would wait out the timeout for as long as Redis is away.
  let away = false;
  let probe: ReturnType<typeof setInterval> | null = null;
  const goneAway = () => {
    if (away || !redis || closing) return;
    away = true;
    onRedisError(new Error('Redis did not answer: the budgets count in this process until it does'));
    probe = setInterval(() => {
      redis
        .ping()
        .then(() => {
          away = false;
          if (probe) clearInterval(probe);
          probe = null;
        })
        .catch(() => undefined);
    }, REDIS_PROBE_MS);
    probe.unref();
  };

  interface Limiter {
    shared: RateLimiterAbstract | null;
    memory: RateLimiterAbstract;
  }

  function limiter(name: string, points: number, durationSeconds: number): Limiter {
    const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
    if (!redis) return { shared: null, memory };
    const shared = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${settings.redisPrefix}limit:${name}`,
      points,
      duration: durationSeconds,
      rejectIfRedisNotReady: true,
      // A key over its budget is refused from memory until its window ends: a flood of
      // refusals costs Redis nothing.
      inMemoryBlockOnConsumed: points + 1,
    });
    return { shared, memory };
  }

  /** Takes a point from Redis's count, or from memory's while Redis is away; the limiter that counted it. */
  async function consume({ shared, memory }: Limiter, key: string): Promise<RateLimiterAbstract> {
    if (shared && !away) {
      try {
        await shared.consume(key);
        return shared;
      } catch (error) {
        if (error instanceof RateLimiterRes) throw error;
        goneAway();
      }
    }
    await memory.consume(key);
    return memory;
  }

  async function take(limit: Limiter, key: string): Promise<Taken | Refused> {
    let from: RateLimiterAbstract;
    try {
      from = await consume(limit, key);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return { ok: false, retryAfterMs: Math.max(1000, refusal.msBeforeNext) };
      throw refusal;
    }
    return {
      ok: true,
      refund: async () => {
        // A refund that does not land leaves the point counted until the window ends: harmless.
        await from.reward(key).catch(() => undefined);
      },
    };
  }

  const windowSeconds = Math.ceil(settings.loginWindowMs / 1000);
  const address = limiter('failures-address', settings.loginIpMaxFailures, windowSeconds);
  const account = limiter('failures-account', settings.loginMaxFailures, windowSeconds);
  const refusals = limiter('refusal-logged', 1, windowSeconds);
  const requests = limiter('requests-user', settings.userRequests, Math.max(1, Math.ceil(settings.userRequestsWindowMs / 1000)));

  return {
    checks: createCheckQueue(settings.loginConcurrency, settings.loginQueue, settings.loginPerAddress),
    takeAddress: (ip) => take(address, addressKey(ip)),
    takeAccount: (userId) => take(account, userId),
    takeRequest: (userId) => take(requests, userId),
    async firstRefusal(kind, key) {
      return (await take(refusals, `${kind}:${digest(key)}`)).ok;
    },
    ready() {
      if (!redis || redis.status === 'ready') return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          redis.off('ready', onReady);
          reject(new Error(`Redis did not answer within ${readyTimeoutMs} ms: the sign-in budgets count in memory until it does`));
        }, readyTimeoutMs);
        const onReady = () => {
          clearTimeout(timer);
          resolve();
        };
        redis.once('ready', onReady);
      });
    },
    redisAway: () => away,
    async close() {
      closing = true;
      if (probe) clearInterval(probe);
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
