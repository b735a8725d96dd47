// The Redis keys a test's servers wrote under its own prefix, removed once it ends: the
// machine's Redis is shared with other test files and other work.
import { Redis } from 'ioredis';

export async function dropRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}
