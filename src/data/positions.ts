// The tab's side of broker sessions and watched accounts (issue 19). A broker session is
// connected through the data worker (the password goes with that one request and is kept
// nowhere); what the server answered (session id and accounts, never the password) is
// remembered in this browser's local storage for the signed-in user, so every tab and a
// reload reuse the session while the server keeps it (it keeps it until it restarts). A
// sign-out forgets them (session.ts). An account is watched through the worker, which
// shares one socket subscription among every section and tab that watches it.
import { PAPER_BROKER_URL } from '../protocol/broker';
import type { PlainError } from '../shared/errors';
import { BROKER_SESSIONS_KEY, getSessionIdentity } from './session';
import { seedPositions } from './store';
import { onRegisteredAgain, reRegister, startDataWorker } from './worker';

export interface BrokerSession {
  /** `sim://` (the paper broker) or a Primary API URL, as connected. */
  url: string;
  /** The broker username ('' for the paper broker). */
  username: string;
  sessionId: string;
  accounts: string[];
}

export interface BrokerLogin {
  url: string;
  username: string;
  /** Sent once, to connect; never stored. */
  password: string;
  /** The account to use, for a Primary API broker that does not list the user's accounts. */
  account?: string;
}

/** The server's answer when a session it does not keep (any more) is used: 404 'La sesión de broker no existe'. */
export const BROKER_SESSION_GONE = 'La sesión de broker no existe';

export const isPaperBroker = (url: string): boolean => url.trim() === PAPER_BROKER_URL;

/** Where a session is remembered: the broker's URL and username (the paper broker has none). */
export function brokerKey(url: string, username: string): string {
  const trimmed = url.trim();
  return isPaperBroker(trimmed) ? PAPER_BROKER_URL : `${trimmed}\n${username.trim()}`;
}

interface Stored {
  userId: string;
  sessions: BrokerSession[];
}

function readStored(): BrokerSession[] {
  const userId = getSessionIdentity()?.userId;
  if (!userId) return [];
  try {
    const raw = localStorage.getItem(BROKER_SESSIONS_KEY);
    const stored = raw ? (JSON.parse(raw) as Stored) : null;
    return stored?.userId === userId && Array.isArray(stored.sessions) ? stored.sessions : [];
  } catch {
    return [];
  }
}

function writeStored(sessions: BrokerSession[]): void {
  const userId = getSessionIdentity()?.userId;
  if (!userId) return;
  try {
    localStorage.setItem(BROKER_SESSIONS_KEY, JSON.stringify({ userId, sessions } satisfies Stored));
  } catch {
    // Storage full or off: the session still works in this page; a reload connects again.
  }
}

/** The session this browser connected to the broker, if it remembers one. */
export function rememberedBrokerSession(url: string, username: string): BrokerSession | null {
  const key = brokerKey(url, username);
  return readStored().find((session) => brokerKey(session.url, session.username) === key) ?? null;
}

/** Forgets a session the server no longer keeps. */
export function forgetBrokerSession(sessionId: string): void {
  const sessions = readStored();
  const kept = sessions.filter((session) => session.sessionId !== sessionId);
  if (kept.length !== sessions.length) writeStored(kept);
}

const connecting = new Map<string, Promise<BrokerSession>>();

/**
 * Connects a broker session (POST /primary/sessions/connect through the worker) and remembers
 * it in place of any earlier one of the same broker and username. Sections that connect the
 * same broker at once share one request. Rejects with the server's PlainError (401 the broker
 * refused the credentials, 502 not reached, 400 an address not allowed).
 */
export function connectBroker(login: BrokerLogin): Promise<BrokerSession> {
  const url = login.url.trim();
  const username = isPaperBroker(url) ? '' : login.username.trim();
  const key = brokerKey(url, username);
  const pending = connecting.get(key);
  if (pending) return pending;
  const request = startDataWorker()
    .api.connectBrokerSession({
      url,
      username,
      password: isPaperBroker(url) ? '' : login.password,
      ...(!isPaperBroker(url) && login.account?.trim() ? { account: login.account.trim() } : {}),
    })
    .then(({ sessionId, accounts }) => {
      const session: BrokerSession = { url, username, sessionId, accounts };
      writeStored([...readStored().filter((other) => brokerKey(other.url, other.username) !== key), session]);
      return session;
    })
    .finally(() => connecting.delete(key));
  connecting.set(key, request);
  return request;
}

interface Hold {
  account: string;
  sessionId: string;
}

/** The accounts this tab watches, held again if the worker forgets the tab. */
const holds = new Set<Hold>();

const isUnknownTab = (error: unknown) => (error as PlainError | null)?.code === 'unknown_tab';

async function watchOnce({ account, sessionId }: Hold): Promise<void> {
  const { api, tabId, registered } = startDataWorker();
  await registered;
  const snapshot = await api.watchAccount(tabId, account, sessionId);
  let fills;
  try {
    fills = await api.watchFills(tabId, account, sessionId);
  } catch (error) {
    void api.releaseAccount(tabId, account);
    throw error;
  }
  seedPositions(account, snapshot, fills);
}

onRegisteredAgain(() => {
  for (const hold of holds) watchOnce(hold).catch((error: unknown) => console.warn('Account watch failed', error));
});

/**
 * Watches an account's positions and fills for this tab (the worker: watch, seed from REST,
 * subscribe; watch-fills, /fills) until the returned release is called. They arrive in the
 * store (usePositions, useFills). Rejects with the server's PlainError, e.g. 404
 * BROKER_SESSION_GONE when the server no longer keeps the session.
 */
export async function watchBrokerAccount(account: string, sessionId: string): Promise<() => void> {
  const hold: Hold = { account, sessionId };
  try {
    await watchOnce(hold);
  } catch (error) {
    if (!isUnknownTab(error)) throw error;
    await reRegister();
    await watchOnce(hold);
  }
  holds.add(hold);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds.delete(hold);
    const { api, tabId } = startDataWorker();
    void api.releaseAccount(tabId, account).catch(() => {});
    void api.releaseFills(tabId, account).catch(() => {});
  };
}
