// Exactly one process runs each feed: it holds a Redis lock it renews; when it dies the lock
// lapses and another process, which asks for it several times per lifetime, takes the feed over
// within the lock's lifetime and one asking interval (under 2 s at the service's settings).
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
  /** A process without the lock asks for it this often (default: a sixth of ttlMs); the holder renews every third. */
  askEveryMs?: number;
  onAcquire(): void;
  onLose(): void;
  onError(error: Error): void;
}

export function createFeedLock(options: FeedLockOptions) {
  const { redis, key, owner, ttlMs } = options;
  let held = false;
  let stopped = false;

  const renewEveryMs = Math.max(100, Math.floor(ttlMs / 3));
  const askEveryMs = Math.max(50, options.askEveryMs ?? Math.floor(ttlMs / 6));
  let renewedAt = 0;

  const attempt = async () => {
    if (stopped) return;
    try {
      if (held) {
        // Renew three times per lifetime, so one slow round trip does not lose the lock.
        // Half a tick of slack: a tick a hair early must not put the renewal off a whole tick.
        if (Date.now() - renewedAt < renewEveryMs - askEveryMs / 2) return;
        renewedAt = Date.now();
        const renewed = await redis.eval(RENEW, 1, key, owner, String(ttlMs));
        if (renewed !== 1) {
          held = false;
          options.onLose();
        }
      } else {
        const acquired = await redis.set(key, owner, 'PX', ttlMs, 'NX');
        if (acquired === 'OK' && !stopped) {
          held = true;
          renewedAt = Date.now();
          options.onAcquire();
        }
      }
    } catch (error) {
      options.onError(error as Error);
    }
  };

  // One timer at the asking pace: a SET NX while another holds the lock costs Redis little.
  const timer = setInterval(() => void attempt(), askEveryMs);
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
