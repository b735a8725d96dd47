// What the broker service shares with other processes, behind one interface like the market
// Hub: the records of broker sessions and watched accounts, the pushes of new snapshots, and
// the commands that must run where a session lives. In one process (this file) it is a few
// maps; across processes (REDIS_URL) it is Redis (redisStore.ts).
//
// A session's Primary client holds the broker's credentials, so it never leaves the process
// that connected it (its owner); the store only holds what anyone may read: who owns the
// session, its accounts, and each watched account's latest snapshot and fills.
import type { Fill, PositionsSnapshot } from '../../src/protocol/broker.js';
import type { DomainErrorKind } from '../errors.js';

export interface SessionRecord {
  id: string;
  userId: string;
  username: string;
  url: string;
  accounts: string[];
  /** The process that holds the session's broker connection. */
  owner: string;
  /** Epoch ms. */
  createdAt: number;
}

export interface AccountRecord {
  userId: string;
  account: string;
  sessionId: string;
  /** The process that revalues the account. */
  owner: string;
  watchingFills: boolean;
  /** Null while warming up. */
  snapshot: PositionsSnapshot | null;
  lastError: string | null;
}

/** Asks the owner of a session to watch one of its accounts (and its fills). */
export interface WatchCommand {
  userId: string;
  account: string;
  sessionId: string;
  fills: boolean;
}

/** A command's outcome: a refusal names the domain error to raise ('internal': the owner failed). */
export type CommandReply = { ok: true } | { ok: false; kind: DomainErrorKind | 'internal'; message: string };

export type SnapshotListener = (snapshot: PositionsSnapshot) => void;

export interface BrokerStore {
  /** This process's name in the records it owns. */
  readonly processId: string;
  /** Resolves once commands sent to this process can arrive. */
  ready(): Promise<void>;

  saveSession(record: SessionRecord): Promise<void>;
  session(id: string): Promise<SessionRecord | null>;
  /** Sessions of every process. */
  sessions(): Promise<SessionRecord[]>;
  deleteSession(id: string): Promise<void>;

  saveAccount(record: AccountRecord): Promise<void>;
  account(userId: string, account: string): Promise<AccountRecord | null>;
  deleteAccount(userId: string, account: string): Promise<void>;
  saveFills(userId: string, account: string, fills: Fill[]): Promise<void>;
  /** Null until the owner has stored them once. */
  fills(userId: string, account: string): Promise<Fill[] | null>;

  /** Hands a new snapshot to every subscriber of the account, in any process. */
  publish(userId: string, account: string, snapshot: PositionsSnapshot): void;
  /** Resolves once pushes flow; the returned function unsubscribes. */
  subscribe(userId: string, account: string, listener: SnapshotListener): Promise<() => Promise<void>>;
  /** Subscribers of the account in every process. */
  subscribers(userId: string, account: string): Promise<number>;

  /** Runs `command` in process `owner`; null when no such process is listening (it is gone). */
  send(owner: string, command: WatchCommand): Promise<CommandReply | null>;
  /** What this process does with the commands sent to it. */
  onCommand(handler: (command: WatchCommand) => Promise<CommandReply>): void;
  /** Tells the other processes that a user was deleted (this one may hear it too). */
  broadcastForget(userId: string): Promise<void>;
  onForget(handler: (userId: string) => void): void;

  close(): Promise<void>;
}

/** One key per user and account, for maps of accounts. */
export const accountKey = (userId: string, account: string) => `${userId}\u0000${account}`;

/** One process: every session is this process's own, and pushes are plain calls. */
export function createMemoryBrokerStore(): BrokerStore {
  const sessions = new Map<string, SessionRecord>();
  const accounts = new Map<string, AccountRecord>();
  const fills = new Map<string, Fill[]>();
  const listeners = new Map<string, Set<SnapshotListener>>();
  let commandHandler: ((command: WatchCommand) => Promise<CommandReply>) | null = null;
  const processId = 'local';

  return {
    processId,
    ready: async () => {},
    saveSession: async (record) => void sessions.set(record.id, record),
    session: async (id) => sessions.get(id) ?? null,
    sessions: async () => [...sessions.values()],
    deleteSession: async (id) => void sessions.delete(id),

    saveAccount: async (record) => void accounts.set(accountKey(record.userId, record.account), record),
    account: async (userId, account) => accounts.get(accountKey(userId, account)) ?? null,
    async deleteAccount(userId, account) {
      accounts.delete(accountKey(userId, account));
      fills.delete(accountKey(userId, account));
    },
    saveFills: async (userId, account, list) => void fills.set(accountKey(userId, account), list),
    fills: async (userId, account) => fills.get(accountKey(userId, account)) ?? null,

    publish(userId, account, snapshot) {
      for (const listener of listeners.get(accountKey(userId, account)) ?? []) listener(snapshot);
    },
    async subscribe(userId, account, listener) {
      const key = accountKey(userId, account);
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      set.add(listener);
      return async () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
      };
    },
    subscribers: async (userId, account) => listeners.get(accountKey(userId, account))?.size ?? 0,

    async send(owner, command) {
      if (owner !== processId || !commandHandler) return null;
      return commandHandler(command);
    },
    onCommand(handler) {
      commandHandler = handler;
    },
    // There is no other process to tell.
    broadcastForget: async () => {},
    onForget: () => {},

    async close() {
      listeners.clear();
    },
  };
}
