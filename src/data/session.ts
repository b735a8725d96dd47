// The signed-in session in this browser: the token in local storage, the token check that
// guards every navigation, sign-in and sign-out.
import { CheckTokenResponse, LoginResponse, LogoutResponse, type PublicUser } from '../protocol/auth';
import type { WorkerSession } from '../workers/api';
import { ApiError, apiRequest } from './api';
import { oneCheckPerNavigation } from './navigationCheck';

const TOKEN_KEY = 'visores.token';
/** Last user a check confirmed, so the app can start offline with a known session. */
const USER_KEY = 'visores.user';
/** The broker sessions this browser connected for the user (data/positions.ts): forgotten at sign-out. */
export const BROKER_SESSIONS_KEY = 'visores.brokerSessions';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

/** Token and user id of the session, for the data worker (null when signed out). */
export function getSessionIdentity(): WorkerSession | null {
  const token = getToken();
  const user = lastKnownUser();
  return token && user ? { token, userId: user._id } : null;
}

type TokenListener = (token: string | null) => void;
const tokenListeners = new Set<TokenListener>();

/** Called when this tab stores a new token or removes it (the data worker follows the session). */
export function onTokenChange(listener: TokenListener): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

function notifyToken(token: string | null): void {
  for (const listener of tokenListeners) listener(token);
}

export function clearSession(): void {
  const had = getToken() != null;
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(BROKER_SESSIONS_KEY);
  if (had) notifyToken(null);
}

function remember(token: string, user: PublicUser): void {
  const changed = getToken() !== token;
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  if (changed) notifyToken(token);
}

function lastKnownUser(): PublicUser | null {
  try {
    const raw = localStorage.getItem(USER_KEY);
    return raw ? (JSON.parse(raw) as PublicUser) : null;
  } catch {
    return null;
  }
}

/**
 * How long the token check waits for the server before the app starts offline with the last
 * confirmed user (issue 21): a network that drops packets rather than refusing must not hold
 * the start up. The server still judges the token as soon as it answers.
 */
export const CHECK_TOKEN_TIMEOUT_MS = 5000;

/** No answer: offline, refused, a proxy's 502/503/504, or the check ran out of time. */
function noAnswer(error: unknown): boolean {
  if (error instanceof ApiError) return error.isNetwork;
  return error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** The server judged the token and refused it: 401, or 400 for one that cannot be a token at all. */
function refusesToken(error: unknown): boolean {
  return error instanceof ApiError && !error.isNetwork && (error.status === 401 || error.status === 400);
}

/**
 * Asks the server about a token: the user, or null after removing a token it refused (401);
 * the last confirmed user for anything else. Only a server that answers, and answers 401,
 * ends a session: no answer, a restart's 503, a 500 or a 429 say nothing about the token, and
 * a tab must not sign out because the server was away (the next check judges it).
 */
function askServer(token: string): Promise<PublicUser | null> {
  const signal = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(CHECK_TOKEN_TIMEOUT_MS) : undefined;
  return apiRequest('/checkToken', { method: 'POST', body: { token }, schema: CheckTokenResponse, ...(signal ? { signal } : {}) })
    .then((response) => {
      remember(token, response.user);
      return response.user;
    })
    .catch((error: unknown) => {
      if (!refusesToken(error)) return lastKnownUser();
      clearSession();
      return null;
    });
}

const checkOnce = oneCheckPerNavigation(askServer);

/**
 * Checks the stored token with the server. Returns the user, or null after removing a
 * token the server refused. The guards of one navigation (the router gives all its loaders
 * one Request, `navigation`) share one request; any other navigation or revalidation waits for
 * a check of its own (navigationCheck.ts).
 * When the server cannot be reached the last confirmed user is returned: the app must
 * open offline (the server refuses the token again as soon as it is reachable).
 */
export function checkSession(navigation: Request): Promise<PublicUser | null> {
  const token = getToken();
  if (!token) return Promise.resolve(null);
  return checkOnce(token, navigation);
}

/** Signs in; throws ApiError with the server's message on refusal. */
export async function signIn(username: string, password: string): Promise<PublicUser> {
  const response = await apiRequest('/login', { method: 'POST', body: { username, password }, schema: LoginResponse });
  remember(response.token, response.user);
  return response.user;
}

/**
 * Logouts the server has not heard of yet: the token of each (which it must stop accepting) and
 * its log text. Kept until the server answers, so a logout made offline reaches it later.
 */
export const PENDING_LOGOUTS_KEY = 'visores.pendingLogouts';
/** More than this many waiting (a browser offline for long, many sign-ins): the oldest go. */
const MAX_PENDING_LOGOUTS = 20;
/** A logout the server did not take (no answer, 5xx, 429) is sent again after 1 s, doubling to this. */
const LOGOUT_RETRY_CAP_MS = 60_000;

interface PendingLogout {
  token: string;
  log: string;
}

function pendingLogouts(): PendingLogout[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(PENDING_LOGOUTS_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((item): item is PendingLogout => typeof item?.token === 'string' && typeof item?.log === 'string');
  } catch {
    return [];
  }
}

function storePendingLogouts(list: PendingLogout[]): void {
  if (list.length === 0) localStorage.removeItem(PENDING_LOGOUTS_KEY);
  else localStorage.setItem(PENDING_LOGOUTS_KEY, JSON.stringify(list.slice(-MAX_PENDING_LOGOUTS)));
}

let sending: Promise<void> | null = null;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryAttempt = 0;

/** A logout request without a whole answer by then counts as no answer (sent again later). */
const LOGOUT_TIMEOUT_MS = 15_000;

/** The server's word on one logout: done (it took it, or no longer knows the token), or try again later. */
async function tellServer({ token, log }: PendingLogout): Promise<'done' | 'later'> {
  try {
    const signal = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(LOGOUT_TIMEOUT_MS) : undefined;
    await apiRequest('/logout', { method: 'POST', body: { log }, token, schema: LogoutResponse, ...(signal ? { signal } : {}) });
    return 'done';
  } catch (error) {
    if (noAnswer(error) || (error instanceof ApiError && (error.status >= 500 || error.status === 429))) return 'later';
    // 401: the session had ended anyway. Any other refusal would be refused again.
    if (!(error instanceof ApiError && error.status === 401)) console.error('Logout failed', error);
    return 'done';
  }
}

/**
 * Sends the logouts that wait, one at a time, oldest first; those the server did not take stay
 * for the next try: 1 s later, doubling to a minute, and at once when the browser is back
 * online or the app starts again.
 */
export function sendPendingLogouts(): Promise<void> {
  sending ??= (async () => {
    clearTimeout(retryTimer);
    let waiting = false;
    // Read again each time: a logout made meanwhile (in this tab or another) is sent too.
    for (let pending = pendingLogouts()[0]; pending; pending = pendingLogouts()[0]) {
      if ((await tellServer(pending)) === 'later') {
        waiting = true;
        break;
      }
      const sent = pending.token;
      storePendingLogouts(pendingLogouts().filter((item) => item.token !== sent));
    }
    if (waiting) {
      retryTimer = setTimeout(() => void sendPendingLogouts(), Math.min(LOGOUT_RETRY_CAP_MS, 1000 * 2 ** retryAttempt++));
    } else retryAttempt = 0;
  })().finally(() => {
    sending = null;
  });
  return sending;
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    retryAttempt = 0;
    void sendPendingLogouts();
  });
  if (pendingLogouts().length > 0) void sendPendingLogouts();
}

/**
 * Signs out: the token goes from this browser at once, online or not (the data worker, told by
 * the token's change, wipes the user's cached data: data/logout.ts waits for it), and the
 * server is told now or, offline, when it answers again (sendPendingLogouts, with the old
 * token). Answers the id of the user signed out (null when no one was), and the first attempt
 * to tell the server.
 */
export function signOut(logText: string): { userId: string | null; told: Promise<void> } {
  const token = getToken();
  const userId = lastKnownUser()?._id ?? null;
  if (!token) return { userId, told: Promise.resolve() };
  storePendingLogouts([...pendingLogouts(), { token, log: logText }]);
  clearSession();
  return { userId, told: sendPendingLogouts() };
}
