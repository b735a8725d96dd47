// Broker sessions and watched accounts (issue 4). A session and its accounts belong to the
// user who connected it; anyone else is told they do not exist (404). Watched accounts are
// revalued every second; a snapshot whose etag changed is pushed to its subscribers.
//
// The process that connects a session owns it: it keeps the broker connection and revalues
// the session's watched accounts. Everything else goes through the BrokerStore (store.ts):
// reads answer from its records, pushes travel through it, and a watch asked of another
// process is sent to the owner. In one process the store is a few maps; with REDIS_URL, Redis.
import { randomBytes } from 'node:crypto';
import { PAPER_BROKER_URL, type Fill, type PositionsSnapshot } from '../../src/protocol/broker.js';
import type { UserRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { MarketService } from '../market/service.js';
import { createPrimaryClient } from '../market/primary/client.js';
import { PrimaryError, type PrimaryClient } from '../market/primary/types.js';
import { createPaperAccount, paperAccountName, type PaperAccount } from './paper.js';
import { paperSource, primarySource, type AccountSource } from './source.js';
import { BROKER_MESSAGES } from './messages.js';
import { createMemoryBrokerStore, type AccountRecord, type BrokerStore, type CommandReply, type SessionRecord, type WatchCommand } from './store.js';

export { BROKER_MESSAGES };

const REVALUE_EVERY_MS = 1000;
/** How often this process checks that the accounts its sockets subscribe to are still watched. */
export const GONE_CHECK_EVERY_MS = 2000;
/** Chance per second that a paper account fills an order. */
const PAPER_FILL_CHANCE = 0.05;

interface BrokerSession {
  record: SessionRecord;
  /** The Primary API client of a real broker session. */
  client: PrimaryClient | null;
}

/** An account this process revalues: its session is this process's own. */
interface Watch {
  userId: string;
  account: string;
  sessionId: string;
  source: AccountSource & { trade?(): void };
  snapshot: PositionsSnapshot | null;
  polledAt: number;
  polling: boolean;
  lastError: string | null;
  watchingFills: boolean;
  fillsReady: boolean;
  /** Count and last execId of the fills last stored, so unchanged fills are not written again. */
  storedFills: string | null;
  /** Set when the watch ends, so a revaluation under way does not store it again. */
  closed: boolean;
}

export interface BrokerServiceOptions {
  /** Where records, pushes and commands go; one process by default. */
  store?: BrokerStore;
  /** Failures of background work (revaluation, the store), which must not crash the process. */
  onError?: (error: unknown) => void;
}

export function createBrokerService(market: MarketService, now: () => number, options: BrokerServiceOptions = {}) {
  const store = options.store ?? createMemoryBrokerStore();
  const onError = options.onError ?? (() => {});
  /** Sessions this process connected (it holds their broker connection). */
  const sessions = new Map<string, BrokerSession>();
  /** Accounts this process revalues. */
  const watches = new Map<string, Watch>();
  /**
   * Paper accounts live as long as the process, so positions survive reconnects. Keyed by
   * user too: a user created later under a deleted user's name gets a fresh account.
   */
  const paperAccounts = new Map<string, PaperAccount>();
  const prices = {
    last: (symbol: string) => market.feeds.lastPrice(symbol),
    previousClose: (symbol: string) => market.hub.latest(symbol)?.CL?.price ?? null,
  };
  const key = (userId: string, account: string) => `${userId}\u0000${account}`;

  const recordOf = (watch: Watch): AccountRecord => ({
    userId: watch.userId,
    account: watch.account,
    sessionId: watch.sessionId,
    owner: store.processId,
    watchingFills: watch.watchingFills,
    snapshot: watch.snapshot,
    lastError: watch.lastError,
  });

  /** Stores the account's fills when they changed since last stored. */
  async function storeFills(watch: Watch): Promise<void> {
    if (!watch.fillsReady || watch.closed) return;
    const fills = watch.source.fills();
    const marker = `${fills.length}:${fills.at(-1)?.execId ?? ''}`;
    if (marker === watch.storedFills) return;
    watch.storedFills = marker;
    try {
      await store.saveFills(watch.userId, watch.account, fills);
    } catch (error) {
      watch.storedFills = null; // written again on the next change or revaluation
      onError(error);
    }
  }

  /** Asks the source for positions; stores and pushes the snapshot when its etag changed. */
  async function revalue(watch: Watch): Promise<void> {
    if (watch.polling || watch.closed) return;
    watch.polling = true;
    watch.polledAt = Date.now(); // polling pace is wall-clock time, not the market clock
    try {
      await storeFills(watch);
      let snapshot: PositionsSnapshot;
      try {
        snapshot = await watch.source.snapshot();
      } catch (error) {
        // The last snapshot stays; the admin page shows why it is not moving.
        const message = error instanceof Error ? error.message : String(error);
        const changed = message !== watch.lastError;
        watch.lastError = message;
        if (changed && !watch.closed) await store.saveAccount(recordOf(watch));
        return;
      }
      const recovered = watch.lastError != null;
      watch.lastError = null;
      if (watch.snapshot?.etag === snapshot.etag) {
        if (recovered && !watch.closed) await store.saveAccount(recordOf(watch));
        return;
      }
      watch.snapshot = snapshot;
      if (watch.closed) return;
      // Stored before it is pushed: whoever hears the push and asks GET gets this one or newer.
      await store.saveAccount(recordOf(watch));
      store.publish(watch.userId, watch.account, snapshot);
    } catch (error) {
      onError(error);
    } finally {
      watch.polling = false;
    }
  }

  const timer = setInterval(() => {
    for (const watch of watches.values()) {
      if (watch.source.trade && Math.random() < PAPER_FILL_CHANCE) watch.source.trade();
      else if (Date.now() - watch.polledAt >= watch.source.pollEveryMs) void revalue(watch);
    }
  }, REVALUE_EVERY_MS);
  timer.unref();

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
        const watched = (await watchedRecord(entry.userId, entry.account)) != null;
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

  async function connectPrimary(user: UserRow, url: string, username: string, password: string): Promise<BrokerSession> {
    const client = createPrimaryClient({ baseUrl: url.endsWith('/') ? url : `${url}/`, username, password });
    try {
      const accounts = (await client.accounts()).map((account) => account.name);
      return { record: newRecord(user, url, accounts), client };
    } catch (error) {
      client.close();
      if (error instanceof PrimaryError && (error.code === 'auth_failed' || error.code === 'unauthorized')) {
        throw new HttpError(401, BROKER_MESSAGES.brokerRefused(error.description ?? error.message));
      }
      throw new HttpError(502, BROKER_MESSAGES.brokerUnreachable(error instanceof Error ? error.message : String(error)));
    }
  }

  function newRecord(user: UserRow, url: string, accounts: string[]): SessionRecord {
    return { id: randomBytes(16).toString('hex'), userId: user.id, username: user.username, url, accounts, owner: store.processId, createdAt: now() };
  }

  /** A watch (and fills) of an account of a session of this process: runs in the session's owner. */
  async function watchHere(command: WatchCommand): Promise<CommandReply> {
    const { userId, account, sessionId } = command;
    let watch = watches.get(key(userId, account));
    if (!watch) {
      const session = sessions.get(sessionId);
      if (!session || session.record.userId !== userId) return { ok: false, status: 404, message: BROKER_MESSAGES.sessionNotFound };
      if (!session.record.accounts.includes(account)) return { ok: false, status: 404, message: BROKER_MESSAGES.accountNotFound(account) };
      let source: Watch['source'];
      if (session.client) {
        source = primarySource(session.client, account, now);
      } else {
        let paper = paperAccounts.get(key(userId, account));
        if (!paper) paperAccounts.set(key(userId, account), (paper = createPaperAccount(account, market.catalogue, prices, now)));
        source = paperSource(paper);
      }
      const created: Watch = {
        userId,
        account,
        sessionId,
        source,
        snapshot: null,
        polledAt: 0,
        polling: false,
        lastError: null,
        watchingFills: false,
        fillsReady: false,
        storedFills: null,
        closed: false,
      };
      source.onChange(() => {
        void storeFills(created);
        void revalue(created);
      });
      watches.set(key(userId, account), created);
      watch = created;
      await store.saveAccount(recordOf(created));
      // The first snapshot comes from the broker asynchronously; until then, warming up.
      setImmediate(() => void revalue(created));
    }
    if (command.fills && !watch.watchingFills) {
      watch.watchingFills = true;
      await store.saveAccount(recordOf(watch));
      const watching = watch;
      setImmediate(() => {
        watching.fillsReady = true;
        void storeFills(watching);
      });
    }
    return { ok: true };
  }
  store.onCommand(watchHere);

  /** Runs a command in process `owner`: here, or sent there; null when that process is gone. */
  const runAt = (owner: string, command: WatchCommand): Promise<CommandReply | null> =>
    owner === store.processId ? watchHere(command) : store.send(owner, command);

  function settle(reply: CommandReply): void {
    if (!reply.ok) throw new HttpError(reply.status, reply.message);
  }

  /**
   * The record of an account the user watches, while the session it was watched through
   * lives: a dead process's session may lapse before its account records do.
   */
  async function watchedRecord(userId: string, account: string): Promise<AccountRecord | null> {
    const record = await store.account(userId, account);
    if (!record || !(await store.session(record.sessionId))) return null;
    return record;
  }

  /** Ends this process's sessions and watches of a user, and their records. */
  function forgetHere(userId: string): void {
    for (const [id, session] of sessions) {
      if (session.record.userId !== userId) continue;
      session.client?.close();
      sessions.delete(id);
      store.deleteSession(id).catch(onError);
    }
    for (const [watchKey, watch] of watches) {
      if (watch.userId !== userId) continue;
      watch.closed = true;
      watch.source.close();
      watches.delete(watchKey);
      store.deleteAccount(watch.userId, watch.account).catch(onError);
    }
    for (const paperKey of paperAccounts.keys()) if (paperKey.startsWith(`${userId}\u0000`)) paperAccounts.delete(paperKey);
  }
  store.onForget(forgetHere);

  return {
    /** The process name in the store's records ('local' without Redis). */
    processId: store.processId,

    async connect(user: UserRow, input: { url: string; username: string; password: string }): Promise<{ sessionId: string; accounts: string[] }> {
      let session: BrokerSession;
      if (input.url === PAPER_BROKER_URL) {
        session = { record: newRecord(user, input.url, [paperAccountName(user.username)]), client: null };
      } else {
        if (!/^https?:\/\/[^\s/]+/i.test(input.url)) throw new HttpError(400, BROKER_MESSAGES.badUrl);
        session = await connectPrimary(user, input.url, input.username, input.password);
      }
      sessions.set(session.record.id, session);
      try {
        await store.saveSession(session.record);
      } catch (error) {
        sessions.delete(session.record.id);
        session.client?.close();
        throw error;
      }
      return { sessionId: session.record.id, accounts: session.record.accounts };
    },

    /**
     * Watches an account of one of the user's sessions, in whichever process owns it. An
     * account already watched stays with the process that watches it. When that process is
     * gone, its records are dropped: the account moves to the session's owner, and a session
     * whose owner is gone does not exist any more (the client connects a new one).
     */
    async watch(user: UserRow, account: string, sessionId: string, fills = false): Promise<void> {
      const session = await store.session(sessionId);
      if (!session || session.userId !== user.id) throw new HttpError(404, BROKER_MESSAGES.sessionNotFound);
      if (!session.accounts.includes(account)) throw new HttpError(404, BROKER_MESSAGES.accountNotFound(account));
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
      throw new HttpError(404, BROKER_MESSAGES.sessionNotFound);
    },

    /** Null while warming up. */
    async positions(user: UserRow, account: string): Promise<PositionsSnapshot | null> {
      const record = await watchedRecord(user.id, account);
      if (!record) throw new HttpError(404, BROKER_MESSAGES.accountNotFound(account));
      return record.snapshot;
    },

    /** Null while warming up; 404 when fills are not watched. */
    async fills(user: UserRow, account: string): Promise<Fill[] | null> {
      const record = await watchedRecord(user.id, account);
      if (!record) throw new HttpError(404, BROKER_MESSAGES.accountNotFound(account));
      if (!record.watchingFills) throw new HttpError(404, BROKER_MESSAGES.fillsNotWatched(account));
      return store.fills(user.id, account);
    },

    /**
     * Pushes each new snapshot of a watched account, from whichever process revalues it.
     * Resolves once pushes flow, with the unsubscribe; null when the account is not watched.
     * `onGone` is called when the account stops being watched (within GONE_CHECK_EVERY_MS of
     * its records going); pushes resume if it is watched again.
     */
    async subscribe(user: UserRow, account: string, listener: (snapshot: PositionsSnapshot) => void, onGone: () => void = () => {}): Promise<(() => Promise<void>) | null> {
      if (!(await watchedRecord(user.id, account))) return null;
      const unsubscribe = await store.subscribe(user.id, account, listener);
      const entryKey = key(user.id, account);
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

    /** Makes every paper account this process watches fill one order and revalue (tests). */
    async tradeAll(): Promise<void> {
      const paper = [...watches.values()].filter((watch) => watch.source.trade);
      for (const watch of paper) watch.source.trade!();
      // A revaluation already under way may predate the fill: run one more after it.
      await Promise.all(paper.map(async (watch) => {
        while (watch.polling) await new Promise((resolve) => setImmediate(resolve));
        await revalue(watch);
      }));
    },

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
      clearInterval(timer);
      clearInterval(goneTimer);
      for (const watch of watches.values()) {
        watch.closed = true;
        watch.source.close();
      }
      for (const session of sessions.values()) session.client?.close();
      await store.close();
    },
  };
}
export type BrokerService = ReturnType<typeof createBrokerService>;
