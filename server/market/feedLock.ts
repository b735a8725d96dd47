// Exactly one process runs each feed: it holds a Redis lock it renews; when it dies the
// lock expires and another process takes the feed over within a few seconds.
import type { Redis } from 'ioredis';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface FeedLockOptions {
  redis: Redis;
  key: string;
  /** This process's identity in the lock. */
  owner: string;
  /** The lock lapses this long after the last renewal. */
  ttlMs: number;
  onAcquire(): void;
  onLose(): void;
  onError(error: Error): void;
}

export function createFeedLock(options: FeedLockOptions) {
  const { redis, key, owner, ttlMs } = options;
  let held = false;
  let stopped = false;

  const attempt = async () => {
    if (stopped) return;
    try {
      if (held) {
        const renewed = await redis.eval(RENEW, 1, key, owner, String(ttlMs));
        if (renewed !== 1) {
          held = false;
          options.onLose();
        }
      } else {
        const acquired = await redis.set(key, owner, 'PX', ttlMs, 'NX');
        if (acquired === 'OK' && !stopped) {
          held = true;
          options.onAcquire();
        }
      }
    } catch (error) {
      options.onError(error as Error);
    }
  };

  // Renew three times per lifetime, so one slow round trip does not lose the lock.
  const timer = setInterval(() => void attempt(), Math.max(100, Math.floor(ttlMs / 3)));
  timer.unref();
  void attempt();

  return {
    get held(): boolean {
      return held;
    },
    async release(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      if (!held) return;
      held = false;
      options.onLose();
      await redis.eval(RELEASE, 1, key, owner).catch(options.onError);
    },
  };
}
