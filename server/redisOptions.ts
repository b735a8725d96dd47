// Options of the Redis connections that send commands (not the subscribers'): a command that
// gets no answer fails after REDIS_COMMAND_TIMEOUT_MS, so a Redis that hangs or a cut connection
// cannot hold a request (an admin page, a broker command, a cluster question) for longer.
import type { RedisOptions } from 'ioredis';

export const REDIS_COMMAND_TIMEOUT_MS = 2000;

export const commandClientOptions = { maxRetriesPerRequest: 2, commandTimeout: REDIS_COMMAND_TIMEOUT_MS } as const satisfies RedisOptions;
