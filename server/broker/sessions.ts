// The broker sessions this process connected: to the paper broker, or to a Primary API
// broker, whose client (holding the user's credentials) never leaves this process. Their
// records go to the BrokerStore, where any process can read them. A Primary API broker
// must be one the BROKER_URLS setting allows, and is reached through a guarded fetch and
// lookup (brokerUrl.ts, guardedFetch.ts). Its accounts are those rest/accounts lists; a broker
// without that call (it is not in the exchange's documentation) works with the account the
// user names, checked with its positions call.
import { randomBytes } from 'node:crypto';
import type { UserRow } from '../db/schema.js';
import { InvalidError, UnauthorizedError, UpstreamError } from '../errors.js';
import { createPrimaryClient } from '../market/primary/client.js';
import { PrimaryError, type PrimaryClient } from '../market/primary/types.js';
import { brokerTarget, guardedLookup, PrivateAddressError, resolvePublic, systemResolver, type BrokerTarget, type Resolver } from './brokerUrl.js';
import { createGuardedFetch } from './guardedFetch.js';
import { BROKER_MESSAGES } from './messages.js';
import { paperAccountName } from './paper.js';
import type { BrokerStore, SessionRecord } from './store.js';

export interface BrokerSession {
  record: SessionRecord;
  /** The Primary API client of a real broker session; null for the paper broker. */
  client: PrimaryClient | null;
}

export interface ConnectInput {
  url: string;
  username: string;
  password: string;
  /** The account the user names (Primary API); checked with its positions. */
  account?: string | undefined;
}

/**
 * Why a broker connection failed, for the server log (one line: the message says it all;
 * never the password). The user is told only whether the broker refused or was not reached.
 */
export class BrokerConnectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrokerConnectError';
    this.stack = `${this.name}: ${message}`;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The broker could not be reached (or did not answer in time). */
function isUnreachable(error: unknown): boolean {
  return !(error instanceof PrimaryError) || error.code === 'network';
}

/** The broker refused the credentials: getToken answered 401/403, or a fresh token was refused. */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof PrimaryError)) return false;
  return error.code === 'unauthorized' || (error.code === 'auth_failed' && (error.status === 401 || error.status === 403));
}

export interface BrokerSessionsOptions {
  /** How host names are resolved (tests); default dns.lookup. */
  resolve?: Resolver;
}

export function createBrokerSessions(store: BrokerStore, now: () => number, onError: (error: unknown) => void, options: BrokerSessionsOptions = {}) {
  /** Sessions this process connected (it holds their broker connection). */
  const sessions = new Map<string, BrokerSession>();
  const resolve = options.resolve ?? systemResolver;
  const lookup = guardedLookup(resolve);
  const http = createGuardedFetch(lookup);

  function newRecord(user: UserRow, url: string, accounts: string[]): SessionRecord {
    return { id: randomBytes(16).toString('hex'), userId: user.id, username: user.username, url, accounts, owner: store.processId, createdAt: now() };
  }

  /** Logs why a connection failed and raises what the user is told. */
  function connectFailed(user: UserRow, target: Extract<BrokerTarget, { kind: 'primary' }>, error: unknown, told: Error): never {
    onError(new BrokerConnectError(`broker connection of user "${user.username}" to ${target.origin} failed: ${errorText(error)}`));
    throw told;
  }

  async function connectPrimary(
    user: UserRow,
    target: Extract<BrokerTarget, { kind: 'primary' }>,
    { username, password, account }: ConnectInput,
  ): Promise<BrokerSession> {
    // Checked before any connection: a name of the setting that resolves to a private address is refused.
    if (!target.addressNamed) {
      try {
        await resolvePublic(target.hostname, resolve);
      } catch (error) {
        if (error instanceof PrivateAddressError) connectFailed(user, target, error, new InvalidError(BROKER_MESSAGES.privateAddress));
        connectFailed(user, target, error, new UpstreamError(BROKER_MESSAGES.brokerUnreachable));
      }
    }
    const url = target.url;
    const client = createPrimaryClient({ baseUrl: url.endsWith('/') ? url : `${url}/`, username, password, fetch: http.fetch, lookup });
    const failed = (error: unknown, told: Error): never => {
      client.close();
      if (isRefusal(error)) connectFailed(user, target, error, new UnauthorizedError(BROKER_MESSAGES.brokerRefused));
      if (isUnreachable(error)) connectFailed(user, target, error, new UpstreamError(BROKER_MESSAGES.brokerUnreachable));
      connectFailed(user, target, error, told);
    };
    const named = account?.trim() ?? '';
    // rest/accounts is not in the documentation and a broker host may not offer it: when it is
    // missing or refused, the account the user names is used.
    let listed: string[] | null = null;
    let unlisted: unknown = null;
    try {
      listed = (await client.accounts()).map((item) => item.name);
    } catch (error) {
      // Not reached, or getToken failed: nothing else can work. Any other failure is this call's.
      if (isUnreachable(error) || (error instanceof PrimaryError && error.code === 'auth_failed')) {
        failed(error, new UpstreamError(BROKER_MESSAGES.brokerUnreachable));
      }
      unlisted = error;
    }
    if (listed) {
      if (named === '' || listed.includes(named)) return { record: newRecord(user, url, listed), client };
      // An account the list lacks joins it when its positions answer; otherwise the list stands.
      try {
        await client.positions(named);
        return { record: newRecord(user, url, [...listed, named]), client };
      } catch (error) {
        if (isRefusal(error) || isUnreachable(error)) failed(error, new UpstreamError(BROKER_MESSAGES.brokerUnreachable));
        onError(new BrokerConnectError(`broker of user "${user.username}" at ${target.origin} does not know account "${named}": ${errorText(error)}`));
        return { record: newRecord(user, url, listed), client };
      }
    }
    if (named === '') failed(unlisted, new InvalidError(BROKER_MESSAGES.accountNeeded));
    // The named account is checked with the positions call: the broker knows it and lets the user see it.
    try {
      await client.positions(named);
    } catch (error) {
      failed(error, new InvalidError(BROKER_MESSAGES.accountRefused(named)));
    }
    return { record: newRecord(user, url, [named]), client };
  }

  return {
    /** A session of this process, by id. */
    get: (id: string): BrokerSession | undefined => sessions.get(id),

    /** Connects `input.url` when it is sim:// or an origin of `allowedOrigins` (BROKER_URLS); otherwise 400, before any connection. */
    async connect(user: UserRow, input: ConnectInput, allowedOrigins: readonly string[]): Promise<SessionRecord> {
      const target = brokerTarget(input.url, allowedOrigins);
      if ('refused' in target) throw new InvalidError(target.refused === 'malformed' ? BROKER_MESSAGES.badUrl : BROKER_MESSAGES.urlNotAllowed);
      let session: BrokerSession;
      if (target.kind === 'paper') {
        // One paper session per user in this process: a second browser or a reconnect gets the
        // same one (its account is the user's anyway), instead of another record kept forever.
        const existing = [...sessions.values()].find((known) => known.client == null && known.record.userId === user.id && known.record.url === input.url);
        if (existing && (await store.session(existing.record.id))) return existing.record;
        session = { record: newRecord(user, input.url, [paperAccountName(user.username)]), client: null };
      } else {
        session = await connectPrimary(user, target, input);
      }
      sessions.set(session.record.id, session);
      try {
        await store.saveSession(session.record);
      } catch (error) {
        sessions.delete(session.record.id);
        session.client?.close();
        throw error;
      }
      return session.record;
    },

    /** Users with a session in this process. */
    users(): Set<string> {
      return new Set([...sessions.values()].map((session) => session.record.userId));
    },

    /** Ends this process's sessions of a user (their broker connections and credentials go), and their records. */
    forgetUser(userId: string): void {
      for (const [id, session] of sessions) {
        if (session.record.userId !== userId) continue;
        session.client?.close();
        sessions.delete(id);
        store.deleteSession(id).catch(onError);
      }
    },

    close(): void {
      for (const session of sessions.values()) session.client?.close();
      http.close();
    },
  };
}
export type BrokerSessions = ReturnType<typeof createBrokerSessions>;
