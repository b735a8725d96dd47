// The accounts this process revalues: those of the broker sessions it owns. Each watched
// account asks its source (paper or Primary) for positions at the source's pace and when a
// fill arrives; a snapshot whose etag changed is stored and then pushed through the store.
// Fills, once asked for, are stored whenever they change.
import type { PositionsSnapshot } from '../../src/protocol/broker.js';
import type { MarketService } from '../market/service.js';
import { marketOf, type Instrument } from '../market/catalogue.js';
import { BROKER_MESSAGES } from './messages.js';
import { createPaperAccount, type PaperAccount } from './paper.js';
import type { BrokerSession, BrokerSessions } from './sessions.js';
import { paperSource, primarySource, type AccountSource } from './source.js';
import { accountKey, type AccountRecord, type BrokerStore, type CommandReply, type WatchCommand } from './store.js';

const REVALUE_EVERY_MS = 1000;
/** Mean seconds between two fills of a paper account (a chance of 1/20 each second). */
const PAPER_FILL_SECONDS = 20;

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

export interface WatchesDeps {
  store: BrokerStore;
  sessions: BrokerSessions;
  market: MarketService;
  now: () => number;
  onError: (error: unknown) => void;
  /** Mean seconds between two fills of a paper account (PAPER_FILL_SECONDS). */
  paperFillSeconds?: number;
}

export function createWatches({ store, sessions, market, now, onError, paperFillSeconds = PAPER_FILL_SECONDS }: WatchesDeps) {
  const paperFillChance = 1 / Math.max(1, paperFillSeconds);
  const watches = new Map<string, Watch>();
  /**
   * Paper accounts live as long as the process, so positions survive reconnects. Keyed by
   * user too: a user created later under a deleted user's name gets a fresh account.
   */
  const paperAccounts = new Map<string, PaperAccount>();
  const prices = {
    last: (symbol: string) => market.feeds.lastPrice(symbol),
    previousClose: (symbol: string) => market.hub.latest(symbol)?.CL?.price ?? null,
    // A closed market (the exchange's hours, or the simulator's with SIM_CALENDAR=real) fills
    // nothing: nothing trades there. A feed an admin stopped still fills, at its last price: the
    // market itself is open (a broker fills there), only this server's picture of it stands still.
    trading: (instrument: Instrument) => market.markets.current().markets.find((entry) => entry.market === marketOf(instrument))?.state !== 'closed',
  };

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
      if (watch.source.trade && Math.random() < paperFillChance) watch.source.trade();
      else if (Date.now() - watch.polledAt >= watch.source.pollEveryMs) void revalue(watch);
    }
  }, REVALUE_EVERY_MS);
  timer.unref();

  function sourceOf(session: BrokerSession, userId: string, account: string): Watch['source'] {
    if (session.client) return primarySource(session.client, account, now);
    let paper = paperAccounts.get(accountKey(userId, account));
    if (!paper) paperAccounts.set(accountKey(userId, account), (paper = createPaperAccount(account, market.catalogue, prices, now)));
    return paperSource(paper);
  }

  function closeWatch(watch: Watch): void {
    watch.closed = true;
    watch.source.close();
  }

  return {
    /** A watch (and fills) of an account of a session of this process: runs in the session's owner. */
    async watchHere(command: WatchCommand): Promise<CommandReply> {
      const { userId, account, sessionId } = command;
      let watch = watches.get(accountKey(userId, account));
      if (!watch) {
        const session = sessions.get(sessionId);
        if (!session || session.record.userId !== userId) return { ok: false, kind: 'not_found', message: BROKER_MESSAGES.sessionNotFound };
        if (!session.record.accounts.includes(account)) return { ok: false, kind: 'not_found', message: BROKER_MESSAGES.accountNotFound(account) };
        const created: Watch = {
          userId,
          account,
          sessionId,
          source: sourceOf(session, userId, account),
          snapshot: null,
          polledAt: 0,
          polling: false,
          lastError: null,
          watchingFills: false,
          fillsReady: false,
          storedFills: null,
          closed: false,
        };
        created.source.onChange(() => {
          void storeFills(created);
          void revalue(created);
        });
        watches.set(accountKey(userId, account), created);
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
    },

    /** Makes every paper account this process watches fill one order and revalue (tests). */
    async tradeAll(): Promise<void> {
      const paper = [...watches.values()].filter((watch) => watch.source.trade);
      for (const watch of paper) watch.source.trade!();
      // A revaluation already under way may predate the fill: run one more after it.
      await Promise.all(
        paper.map(async (watch) => {
          while (watch.polling) await new Promise((resolve) => setImmediate(resolve));
          await revalue(watch);
        }),
      );
    },

    /**
     * Ends this process's watches of a user and their records. A deleted user's paper accounts
     * go too; a user whose sessions ended keeps them (they hold no credentials), so the paper
     * positions are there at the next sign-in, as across reconnects.
     */
    forgetUser(userId: string, options: { keepPaper?: boolean } = {}): void {
      for (const [watchKey, watch] of watches) {
        if (watch.userId !== userId) continue;
        closeWatch(watch);
        watches.delete(watchKey);
        store.deleteAccount(watch.userId, watch.account).catch(onError);
      }
      if (options.keepPaper) return;
      for (const paperKey of paperAccounts.keys()) if (paperKey.startsWith(accountKey(userId, ''))) paperAccounts.delete(paperKey);
    },

    /** Users with a watch in this process. */
    users(): Set<string> {
      return new Set([...watches.values()].map((watch) => watch.userId));
    },

    close(): void {
      clearInterval(timer);
      for (const watch of watches.values()) closeWatch(watch);
    },
  };
}
