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

/** Asks the server about a token: the user, or null after removing a token it refused; the last confirmed user when it cannot be reached. */
function askServer(token: string): Promise<PublicUser | null> {
  const signal = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(CHECK_TOKEN_TIMEOUT_MS) : undefined;
  return apiRequest('/checkToken', { method: 'POST', body: { token }, schema: CheckTokenResponse, ...(signal ? { signal } : {}) })
    .then((response) => {
      remember(token, response.user);
      return response.user;
    })
    .catch((error: unknown) => {
      if (noAnswer(error)) return lastKnownUser();
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
 * Signs out on the server. Returns true when the session is over (the server said
 * success, or it no longer knew the token), after removing it here; false otherwise,
 * leaving everything as it was (the spec: failures are logged and ignored).
 */
export async function signOut(logText: string): Promise<boolean> {
  const token = getToken();
  if (!token) return true;
  try {
    const response = await apiRequest('/logout', { method: 'POST', body: { log: logText }, token, schema: LogoutResponse });
    if (response.status !== 'success') return false;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) {
      console.error('Logout failed', error);
      return false;
    }
  }
  clearSession();
  return true;
}
