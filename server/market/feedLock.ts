// Exactly one process runs each feed: it holds a Redis lock it renews; when it dies the lock
// lapses and another process, which asks for it several times per lifetime, takes the feed over
// within the lock's lifetime and one asking interval (under 2 s at the service's settings).
//
// Asking and renewing are one script, which takes the lock when it is free and extends it when
// it is already this process's. A command can time out here and still reach Redis later (a cut
// connection's queue is sent when it comes back): a take that "failed" that way has left the
// lock under this process's name, and the next ask finds it its own instead of waiting for it to
// lapse with no process running the feed. A holder that cannot reach Redis keeps its feed, so
// its own clients stay live through a cut (another process may take the lapsed lock and run
// the feed for the clients Redis still reaches); at its first answer it learns whether the lock
// is still its own, and stops the feed if not.
import type { Redis } from 'ioredis';

const TAKE = `local holder = redis.call('get', KEYS[1])
if holder == false then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if holder == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
return 0`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface FeedLockOptions {
  redis: Pick<Redis, 'eval'>;
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
  /** One command at a time: a slow one is not joined by others that would race its answer. */
  let asking = false;

  const renewEveryMs = Math.max(100, Math.floor(ttlMs / 3));
  const askEveryMs = Math.max(50, options.askEveryMs ?? Math.floor(ttlMs / 6));
  /** When the last command that took or renewed the lock was sent. */
  let renewedAt = 0;

  const lose = () => {
    held = false;
    options.onLose();
  };

  const attempt = async () => {
    if (stopped) return;
    // Renew three times per lifetime, so one slow round trip does not lose the lock.
    // Half a tick of slack: a tick a hair early must not put the renewal off a whole tick.
    if (held && Date.now() - renewedAt < renewEveryMs - askEveryMs / 2) return;
    if (asking) return;
    asking = true;
    const sentAt = Date.now();
    try {
      const taken = (await redis.eval(TAKE, 1, key, owner, String(ttlMs))) === 1;
      if (stopped) return;
      if (taken) {
        renewedAt = sentAt;
        if (!held) {
          held = true;
          options.onAcquire();
        }
      } else if (held) {
        lose();
      }
    } catch (error) {
      options.onError(error as Error);
    } finally {
      asking = false;
    }
  };

  // One timer at the asking pace: a take while another holds the lock costs Redis little.
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
      lose();
      await redis.eval(RELEASE, 1, key, owner).catch(options.onError);
    },
  };
}
