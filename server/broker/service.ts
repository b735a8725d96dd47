// Broker sessions and watched accounts (issue 4). A session and its accounts belong to the
// user who connected it; anyone else is told they do not exist (404). Watched accounts are
// revalued every second; a snapshot whose etag changed is pushed to its subscribers.
import { randomBytes } from 'node:crypto';
import { PAPER_BROKER_URL, type Fill, type PositionsSnapshot } from '../../src/protocol/broker.js';
import type { UserRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { MarketService } from '../market/service.js';
import { createPaperAccount, paperAccountName, type PaperAccount } from './paper.js';

export const BROKER_MESSAGES = {
  sessionNotFound: 'La sesión de broker no existe',
  accountNotFound: (account: string) => `La cuenta ${account} no existe o no es suya`,
  notWatched: (account: string) => `La cuenta ${account} no está siendo observada: llame antes a /watch`,
  primaryUnavailable: `Por ahora solo está disponible el broker simulado (${PAPER_BROKER_URL})`,
  badUrl: 'La dirección del broker debe ser sim:// o una URL http(s)',
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
}

interface Watch {
  userId: string;
  account: string;
  sessionId: string;
  paper: PaperAccount;
  snapshot: PositionsSnapshot | null;
  watchingFills: boolean;
  fillsReady: boolean;
  listeners: Set<(snapshot: PositionsSnapshot) => void>;
}

export function createBrokerService(market: MarketService, now: () => number) {
  const sessions = new Map<string, BrokerSession>();
  const watches = new Map<string, Watch>();
  /** Paper accounts live as long as the process, so positions survive reconnects. */
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

  function revalue(watch: Watch): void {
    const snapshot = watch.paper.snapshot();
    if (watch.snapshot?.etag === snapshot.etag) return;
    watch.snapshot = snapshot;
    for (const listener of watch.listeners) listener(snapshot);
  }

  const timer = setInterval(() => {
    for (const watch of watches.values()) {
      if (Math.random() < PAPER_FILL_CHANCE) watch.paper.trade();
      revalue(watch);
    }
  }, REVALUE_EVERY_MS);
  timer.unref();

  return {
    async connect(user: UserRow, input: { url: string }): Promise<{ sessionId: string; accounts: string[] }> {
      if (input.url !== PAPER_BROKER_URL) {
        if (!/^https?:\/\//i.test(input.url)) throw new HttpError(400, BROKER_MESSAGES.badUrl);
        throw new HttpError(501, BROKER_MESSAGES.primaryUnavailable);
      }
      const account = paperAccountName(user.username);
      const session: BrokerSession = { id: randomBytes(16).toString('hex'), userId: user.id, username: user.username, url: input.url, accounts: [account], createdAt: now() };
      sessions.set(session.id, session);
      return { sessionId: session.id, accounts: session.accounts };
    },

    watch(user: UserRow, account: string, sessionId: string, fills = false): void {
      const session = sessions.get(sessionId);
      if (!session || session.userId !== user.id) throw new HttpError(404, BROKER_MESSAGES.sessionNotFound);
      if (!session.accounts.includes(account)) throw new HttpError(404, BROKER_MESSAGES.accountNotFound(account));
      let watch = watches.get(key(user.id, account));
      if (!watch) {
        let paper = paperAccounts.get(account);
        if (!paper) paperAccounts.set(account, (paper = createPaperAccount(account, market.catalogue, prices, now)));
        watch = { userId: user.id, account, sessionId, paper, snapshot: null, watchingFills: false, fillsReady: false, listeners: new Set() };
        watches.set(key(user.id, account), watch);
        // The first snapshot comes from the broker asynchronously; until then, warming up.
        const created = watch;
        setImmediate(() => revalue(created));
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
      return watch.fillsReady ? watch.paper.fills() : null;
    },

    /** Pushes each new snapshot of a watched account; returns the unsubscribe. */
    subscribe(user: UserRow, account: string, listener: (snapshot: PositionsSnapshot) => void): (() => void) | null {
      const watch = watches.get(key(user.id, account));
      if (!watch) return null;
      watch.listeners.add(listener);
      return () => watch.listeners.delete(listener);
    },

    /** Moves every watched paper account: one fill each, then revalue (tests). */
    tradeAll(): void {
      for (const watch of watches.values()) {
        watch.paper.trade();
        revalue(watch);
      }
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
          return { account, watched: watch != null, subscribers: watch?.listeners.size ?? 0, as_of: watch?.snapshot?.as_of ?? null };
        }),
      }));
    },

    close(): void {
      clearInterval(timer);
    },
  };
}
export type BrokerService = ReturnType<typeof createBrokerService>;
