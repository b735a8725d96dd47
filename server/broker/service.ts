// Broker sessions and watched accounts (issue 4). A session and its accounts belong to the
// user who connected it; anyone else is told they do not exist (404). Watched accounts are
// revalued every second; a snapshot whose etag changed is pushed to its subscribers.
//
// The process that connects a session owns it: it keeps the broker connection (sessions.ts)
// and revalues the session's watched accounts (watches.ts). Everything else goes through the
// BrokerStore (store.ts): reads answer from its records, pushes travel through it to the
// sockets' subscriptions (subscribers.ts), and a watch asked of another process is sent to
// the owner. In one process the store is a few maps; with REDIS_URL, Redis.
import { PAPER_BROKER_URL, type Fill, type PositionsSnapshot } from '../../src/protocol/broker.js';
import type { UserRow } from '../db/schema.js';
import { DomainError, NotFoundError } from '../errors.js';
import type { MarketService } from '../market/service.js';
import { BROKER_MESSAGES } from './messages.js';
import { createBrokerSessions, type ConnectInput } from './sessions.js';
import { createMemoryBrokerStore, type BrokerStore, type CommandReply, type WatchCommand } from './store.js';
import { createSubscribers, watchedRecord } from './subscribers.js';
import { createWatches } from './watches.js';

export interface BrokerServiceOptions {
  /** Where records, pushes and commands go; one process by default. */
  store?: BrokerStore;
  /** Failures of background work (revaluation, the store), which must not crash the process. */
  onError?: (error: unknown) => void;
  /** Mean seconds between two fills of a watched paper account (PAPER_FILL_SECONDS); 20 by default. */
  paperFillSeconds?: number;
}

/** Raises the refusal a command's owner answered with. */
function settle(reply: CommandReply): void {
  if (reply.ok) return;
  // The owner failed: a fault here too (logged, answered with a generic message).
  if (reply.kind === 'internal') throw new Error(reply.message);
  throw new DomainError(reply.kind, reply.message);
}

export function createBrokerService(market: MarketService, now: () => number, options: BrokerServiceOptions = {}) {
  const store = options.store ?? createMemoryBrokerStore();
  const onError = options.onError ?? (() => {});
  const sessions = createBrokerSessions(store, now, onError);
  const watches = createWatches({ store, sessions, market, now, onError, paperFillSeconds: options.paperFillSeconds });
  const subscribers = createSubscribers(store, onError);
  store.onCommand(watches.watchHere);

  /** Runs a command in process `owner`: here, or sent there; null when that process is gone. */
  const runAt = (owner: string, command: WatchCommand): Promise<CommandReply | null> =>
    owner === store.processId ? watches.watchHere(command) : store.send(owner, command);

  /** Ends this process's sessions and watches of a user, and their records. */
  function forgetHere(userId: string): void {
    sessions.forgetUser(userId);
    watches.forgetUser(userId);
  }
  store.onForget(forgetHere);

  return {
    /** The process name in the store's records ('local' without Redis). */
    processId: store.processId,

    /** `allowedOrigins`: the BROKER_URLS setting; any other address but sim:// is refused (400) before a connection. */
    async connect(user: UserRow, input: ConnectInput, allowedOrigins: readonly string[]): Promise<{ sessionId: string; accounts: string[] }> {
      const record = await sessions.connect(user, input, allowedOrigins);
      return { sessionId: record.id, accounts: record.accounts };
    },

    /**
     * Watches an account of one of the user's sessions, in whichever process owns it. An
     * account already watched stays with the process that watches it. When that process is
     * gone, its records are dropped: the account moves to the session's owner, and a session
     * whose owner is gone does not exist any more (the client connects a new one).
     */
    async watch(user: UserRow, account: string, sessionId: string, fills = false): Promise<void> {
      const session = await store.session(sessionId);
      if (!session || session.userId !== user.id) throw new NotFoundError(BROKER_MESSAGES.sessionNotFound);
      if (!session.accounts.includes(account)) throw new NotFoundError(BROKER_MESSAGES.accountNotFound(account));
      const command: WatchCommand = { userId: user.id, account, sessionId, fills };
      const existing = await store.account(user.id, account);
      if (existing && existing.owner !== session.owner) {
        const reply = await runAt(existing.owner, command);
        if (reply) return settle(reply);
      }
      const reply = await runAt(session.owner, command);
      if (reply) return settle(reply);
      if (existing) await store.deleteAccount(user.id, account);
      await store.deleteSession(sessionId);
      throw new NotFoundError(BROKER_MESSAGES.sessionNotFound);
    },

    /** Null while warming up. */
    async positions(user: UserRow, account: string): Promise<PositionsSnapshot | null> {
      const record = await watchedRecord(store, user.id, account);
      if (!record) throw new NotFoundError(BROKER_MESSAGES.accountNotFound(account));
      return record.snapshot;
    },

    /** Null while warming up; 404 when fills are not watched. */
    async fills(user: UserRow, account: string): Promise<Fill[] | null> {
      const record = await watchedRecord(store, user.id, account);
      if (!record) throw new NotFoundError(BROKER_MESSAGES.accountNotFound(account));
      if (!record.watchingFills) throw new NotFoundError(BROKER_MESSAGES.fillsNotWatched(account));
      return store.fills(user.id, account);
    },

    /**
     * Pushes each new snapshot of a watched account, from whichever process revalues it.
     * Resolves once pushes flow, with the unsubscribe; null when the account is not watched.
     * `onGone` is called when the account stops being watched (within GONE_CHECK_EVERY_MS,
     * subscribers.ts, of its records going); pushes resume if it is watched again.
     */
    subscribe(
      user: UserRow,
      account: string,
      listener: (snapshot: PositionsSnapshot) => void,
      onGone: () => void = () => {},
    ): Promise<(() => Promise<void>) | null> {
      return subscribers.subscribe(user, account, listener, onGone);
    },

    /** Makes every paper account this process watches fill one order and revalue (tests). */
    tradeAll: (): Promise<void> => watches.tradeAll(),

    /** Sessions of every process, oldest first. */
    async adminList() {
      const records = (await store.sessions()).sort((a, b) => a.createdAt - b.createdAt);
      return Promise.all(
        records.map(async (session) => ({
          sessionId: session.id,
          user: session.username,
          broker: session.url === PAPER_BROKER_URL ? 'paper' : 'primary',
          url: session.url,
          connectedAt: new Date(session.createdAt).toISOString(),
          accounts: await Promise.all(
            session.accounts.map(async (account) => {
              const record = await store.account(session.userId, account);
              const subscribers = record ? await store.subscribers(session.userId, account) : 0;
              return { account, watched: record != null, subscribers, as_of: record?.snapshot?.as_of ?? null, lastError: record?.lastError ?? null };
            }),
          ),
        })),
      );
    },

    /** Users with a broker session or a watched account in this process. */
    usersHere(): string[] {
      return [...new Set([...sessions.users(), ...watches.users()])];
    },

    /**
     * Ends this process's broker sessions and watches of a user who is no longer signed in
     * anywhere (their last session ended, or the account was disabled): the broker connections
     * close and their credentials leave memory. Each process does it for its own (session
     * sweep, server/sessionEnds.ts). The paper accounts stay (no credentials in them).
     */
    endUserHere(userId: string): void {
      sessions.forgetUser(userId);
      watches.forgetUser(userId, { keepPaper: true });
    },

    /** Ends a deleted user's broker sessions and watches, in every process. */
    async forgetUser(userId: string): Promise<void> {
      forgetHere(userId);
      // Other processes' records go now, so no process lists or serves them; their owners
      // close the broker connections when the word reaches them.
      for (const session of await store.sessions()) {
        if (session.userId !== userId) continue;
        await store.deleteSession(session.id);
        for (const account of session.accounts) await store.deleteAccount(userId, account);
      }
      await store.broadcastForget(userId);
    },

    async close(): Promise<void> {
      watches.close();
      subscribers.close();
      sessions.close();
      await store.close();
    },
  };
}
export type BrokerService = ReturnType<typeof createBrokerService>;
