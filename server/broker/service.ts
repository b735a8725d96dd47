// Broker sessions and watched accounts (issue 4). A session and its accounts belong to the
// user who connected it; anyone else is told they do not exist (404). Watched accounts are
// revalued every second; a snapshot whose etag changed is pushed to its subscribers.
import { randomBytes } from 'node:crypto';
import { PAPER_BROKER_URL, type Fill, type PositionsSnapshot } from '../../src/protocol/broker.js';
import type { UserRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { MarketService } from '../market/service.js';
import { createPrimaryClient } from '../market/primary/client.js';
import { PrimaryError, type PrimaryClient } from '../market/primary/types.js';
import { createPaperAccount, paperAccountName, type PaperAccount } from './paper.js';
import { paperSource, primarySource, type AccountSource } from './source.js';

export const BROKER_MESSAGES = {
  sessionNotFound: 'La sesión de broker no existe',
  accountNotFound: (account: string) => `La cuenta ${account} no existe o no es suya`,
  notWatched: (account: string) => `La cuenta ${account} no está siendo observada: llame antes a /watch`,
  badUrl: 'La dirección del broker debe ser sim:// o una URL http(s)',
  brokerRefused: (reason: string) => `El broker rechazó la conexión: ${reason}`,
  brokerUnreachable: (reason: string) => `No se pudo conectar con el broker: ${reason}`,
} as const;

const REVALUE_EVERY_MS = 1000;
/** Chance per second that a paper account fills an order. */
const PAPER_FILL_CHANCE = 0.05;

interface BrokerSession {
  id: string;
  userId: string;
  username: string;
  url: string;
  accounts: string[];
  createdAt: number;
  /** The Primary API client of a real broker session. */
  client: PrimaryClient | null;
}

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
  listeners: Set<(snapshot: PositionsSnapshot) => void>;
}

export function createBrokerService(market: MarketService, now: () => number) {
  const sessions = new Map<string, BrokerSession>();
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

  function watchOf(user: UserRow, account: string): Watch {
    const watch = watches.get(key(user.id, account));
    if (!watch) throw new HttpError(404, BROKER_MESSAGES.accountNotFound(account));
    return watch;
  }

  /** Asks the source for positions; pushes the snapshot when its etag changed. */
  async function revalue(watch: Watch): Promise<void> {
    if (watch.polling) return;
    watch.polling = true;
    watch.polledAt = Date.now(); // polling pace is wall-clock time, not the market clock
    try {
      const snapshot = await watch.source.snapshot();
      watch.lastError = null;
      if (watch.snapshot?.etag === snapshot.etag) return;
      watch.snapshot = snapshot;
      for (const listener of watch.listeners) listener(snapshot);
    } catch (error) {
      // The last snapshot stays; the admin page shows why it is not moving.
      watch.lastError = error instanceof Error ? error.message : String(error);
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

  async function connectPrimary(user: UserRow, url: string, username: string, password: string): Promise<BrokerSession> {
    const client = createPrimaryClient({ baseUrl: url.endsWith('/') ? url : `${url}/`, username, password });
    try {
      const accounts = (await client.accounts()).map((account) => account.name);
      return { id: randomBytes(16).toString('hex'), userId: user.id, username: user.username, url, accounts, createdAt: now(), client };
    } catch (error) {
      client.close();
      if (error instanceof PrimaryError && (error.code === 'auth_failed' || error.code === 'unauthorized')) {
        throw new HttpError(401, BROKER_MESSAGES.brokerRefused(error.description ?? error.message));
      }
      throw new HttpError(502, BROKER_MESSAGES.brokerUnreachable(error instanceof Error ? error.message : String(error)));
    }
  }

  return {
    async connect(user: UserRow, input: { url: string; username: string; password: string }): Promise<{ sessionId: string; accounts: string[] }> {
      let session: BrokerSession;
      if (input.url === PAPER_BROKER_URL) {
        const account = paperAccountName(user.username);
        session = { id: randomBytes(16).toString('hex'), userId: user.id, username: user.username, url: input.url, accounts: [account], createdAt: now(), client: null };
      } else {
        if (!/^https?:\/\/[^\s/]+/i.test(input.url)) throw new HttpError(400, BROKER_MESSAGES.badUrl);
        session = await connectPrimary(user, input.url, input.username, input.password);
      }
      sessions.set(session.id, session);
      return { sessionId: session.id, accounts: session.accounts };
    },

    watch(user: UserRow, account: string, sessionId: string, fills = false): void {
      const session = sessions.get(sessionId);
      if (!session || session.userId !== user.id) throw new HttpError(404, BROKER_MESSAGES.sessionNotFound);
      if (!session.accounts.includes(account)) throw new HttpError(404, BROKER_MESSAGES.accountNotFound(account));
      let watch = watches.get(key(user.id, account));
      if (!watch) {
        let source: Watch['source'];
        if (session.client) {
          source = primarySource(session.client, account, now);
        } else {
          let paper = paperAccounts.get(key(user.id, account));
          if (!paper) paperAccounts.set(key(user.id, account), (paper = createPaperAccount(account, market.catalogue, prices, now)));
          source = paperSource(paper);
        }
        const created: Watch = { userId: user.id, account, sessionId, source, snapshot: null, polledAt: 0, polling: false, lastError: null, watchingFills: false, fillsReady: false, listeners: new Set() };
        source.onChange(() => void revalue(created));
        watches.set(key(user.id, account), created);
        watch = created;
        // The first snapshot comes from the broker asynchronously; until then, warming up.
        setImmediate(() => void revalue(created));
      }
      if (fills && !watch.watchingFills) {
        watch.watchingFills = true;
        const created = watch;
        setImmediate(() => (created.fillsReady = true));
      }
    },

    /** Null while warming up. */
    positions(user: UserRow, account: string): PositionsSnapshot | null {
      return watchOf(user, account).snapshot;
    },

    /** Null while warming up; 404 when fills are not watched. */
    fills(user: UserRow, account: string): Fill[] | null {
      const watch = watchOf(user, account);
      if (!watch.watchingFills) throw new HttpError(404, `Los fills de la cuenta ${account} no están siendo observados: llame antes a /watch-fills`);
      return watch.fillsReady ? watch.source.fills() : null;
    },

    /** Pushes each new snapshot of a watched account; returns the unsubscribe. */
    subscribe(user: UserRow, account: string, listener: (snapshot: PositionsSnapshot) => void): (() => void) | null {
      const watch = watches.get(key(user.id, account));
      if (!watch) return null;
      watch.listeners.add(listener);
      return () => watch.listeners.delete(listener);
    },

    /** Makes every watched paper account fill one order and revalue (tests). */
    async tradeAll(): Promise<void> {
      const paper = [...watches.values()].filter((watch) => watch.source.trade);
      for (const watch of paper) watch.source.trade!();
      // A revaluation already under way may predate the fill: run one more after it.
      await Promise.all(paper.map(async (watch) => {
        while (watch.polling) await new Promise((resolve) => setImmediate(resolve));
        await revalue(watch);
      }));
    },

    adminList() {
      return [...sessions.values()].map((session) => ({
        sessionId: session.id,
        user: session.username,
        broker: session.url === PAPER_BROKER_URL ? 'paper' : 'primary',
        url: session.url,
        connectedAt: new Date(session.createdAt).toISOString(),
        accounts: session.accounts.map((account) => {
          const watch = watches.get(key(session.userId, account));
          return { account, watched: watch != null, subscribers: watch?.listeners.size ?? 0, as_of: watch?.snapshot?.as_of ?? null, lastError: watch?.lastError ?? null };
        }),
      }));
    },

    /** Ends a deleted user's broker sessions and watches. */
    forgetUser(userId: string): void {
      for (const [id, session] of sessions) {
        if (session.userId !== userId) continue;
        session.client?.close();
        sessions.delete(id);
      }
      for (const [watchKey, watch] of watches) {
        if (watch.userId !== userId) continue;
        watch.source.close();
        watches.delete(watchKey);
      }
      for (const paperKey of paperAccounts.keys()) if (paperKey.startsWith(`${userId}\u0000`)) paperAccounts.delete(paperKey);
    },

    close(): void {
      clearInterval(timer);
      for (const watch of watches.values()) watch.source.close();
      for (const session of sessions.values()) session.client?.close();
    },
  };
}
export type BrokerService = ReturnType<typeof createBrokerService>;
