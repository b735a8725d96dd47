// One signed-in user's requests take turns: at most `perUser` run at once, the next waits for
// one to finish, and is let in on the event loop's next round (setImmediate), after whatever
// else was ready by then: other users' requests, a file being sent, a socket's message. The
// request budget bounds how many requests a user makes in a window, not how close together:
// 200 lists of 200 visores from 5 connections, all at once, held the event loop ~0.6 s, and a
// 440 KB script, which needs a round of the loop for each piece it is sent in, waited that long.

/** A user's requests waiting for a turn at most; past it 429, as a request over the user's budget. */
export const USER_WAITING_REQUESTS = 64;

export interface UserTurns {
  /**
   * Resolves when a request of `userId` may run, with the function that ends its turn (call it
   * once, when the answer is done or the client gone); null when the user already has
   * `maxWaiting` requests waiting (refused, 429).
   */
  enter(userId: string): Promise<(() => void) | null>;
  /** Requests of `userId` running and waiting now. */
  stats(userId: string): { running: number; waiting: number };
}

export function createUserTurns(perUser: number, maxWaiting: number): UserTurns {
  const users = new Map<string, { running: number; waiting: Array<() => void> }>();

  function release(userId: string): void {
    const user = users.get(userId)!;
    const next = user.waiting.shift();
    // The turn passes to the next request as it is (running stays), on the loop's next round.
    if (next) setImmediate(next);
    else if (--user.running === 0) users.delete(userId);
  }

  return {
    async enter(userId) {
      let user = users.get(userId);
      if (!user) users.set(userId, (user = { running: 0, waiting: [] }));
      if (user.running < perUser) user.running += 1;
      else if (user.waiting.length >= maxWaiting) return null;
      else await new Promise<void>((resolve) => user.waiting.push(resolve));
      let done = false;
      return () => {
        if (done) return;
        done = true;
        release(userId);
      };
    },
    stats(userId) {
      const user = users.get(userId);
      return { running: user?.running ?? 0, waiting: user?.waiting.length ?? 0 };
    },
  };
}
