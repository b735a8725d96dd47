// The socket subscribers of this process: pushes of a watched account's snapshots, from
// whichever process revalues it, and word when the account stops being watched.
import type { PositionsSnapshot } from '../../src/protocol/broker.js';
import type { UserRow } from '../db/schema.js';
import { accountKey, type AccountRecord, type BrokerStore } from './store.js';

/** How often this process checks that the accounts its sockets subscribe to are still watched. */
export const GONE_CHECK_EVERY_MS = 2000;

/**
 * The record of an account the user watches, while the session it was watched through
 * lives: a dead process's session may lapse before its account records do.
 */
export async function watchedRecord(store: BrokerStore, userId: string, account: string): Promise<AccountRecord | null> {
  const record = await store.account(userId, account);
  if (!record || !(await store.session(record.sessionId))) return null;
  return record;
}

export function createSubscribers(store: BrokerStore, onError: (error: unknown) => void) {
  /**
   * Accounts this process's sockets subscribe to, each with what to call when it stops being
   * watched: its session's process died (with Redis its records lapse) or the user was
   * deleted. The subscriptions stay, so pushes flow again once the account is watched
   * through a new session; `lost` makes each loss told once.
   */
  const subscribed = new Map<string, { userId: string; account: string; onGone: Set<() => void>; lost: boolean }>();
  let checking = false;
  async function checkSubscribed(): Promise<void> {
    if (checking) return;
    checking = true;
    try {
      for (const entry of subscribed.values()) {
        const watched = (await watchedRecord(store, entry.userId, entry.account)) != null;
        if (watched || entry.lost) {
          entry.lost = !watched;
          continue;
        }
        entry.lost = true;
        for (const onGone of entry.onGone) onGone();
      }
    } catch (error) {
      onError(error); // the store cannot be read now: checked again next time
    } finally {
      checking = false;
    }
  }
  const goneTimer = setInterval(() => void checkSubscribed(), GONE_CHECK_EVERY_MS);
  goneTimer.unref();

  return {
    /** See BrokerService.subscribe. */
    async subscribe(
      user: UserRow,
      account: string,
      listener: (snapshot: PositionsSnapshot) => void,
      onGone: () => void,
    ): Promise<(() => Promise<void>) | null> {
      if (!(await watchedRecord(store, user.id, account))) return null;
      const unsubscribe = await store.subscribe(user.id, account, listener);
      const entryKey = accountKey(user.id, account);
      let entry = subscribed.get(entryKey);
      if (!entry) subscribed.set(entryKey, (entry = { userId: user.id, account, onGone: new Set(), lost: false }));
      // A function of its own per subscription, so two subscribers with one callback stay two.
      const told = () => onGone();
      entry.onGone.add(told);
      return async () => {
        const current = subscribed.get(entryKey);
        if (current?.onGone.delete(told) && current.onGone.size === 0) subscribed.delete(entryKey);
        await unsubscribe();
      };
    },

    close(): void {
      clearInterval(goneTimer);
    },
  };
}
