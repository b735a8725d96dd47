// The install manifest's shortcuts to the user's favourite visores (issue 21). A static manifest
// cannot know them: the page keeps the favourites' ids and titles in a cookie that only the
// manifest's path gets (shortcutsCookie), points its <link rel="manifest"> at /app.webmanifest,
// and the server answers the built manifest with one shortcut more per favourite
// (parseShortcutsCookie, withFavouriteShortcuts). Not in the URL: a query would put the titles
// in every access log on the way. Nothing is stored on the server. Pure: the tab and the server
// both run it.
import { paths } from './paths';

/** Favourite visores offered as shortcuts, besides Inicio (launchers show a handful at most). */
export const MAX_FAVOURITE_SHORTCUTS = 6;
/** A shortcut's name is cut to this many characters. */
export const MAX_SHORTCUT_NAME = 60;
/** The cookie with the favourites: base64url of a JSON list of `<visor id>:<title>`. */
export const SHORTCUTS_COOKIE = 'visores_atajos';
/** The server's manifest with shortcuts; the built one (no favourites) is /manifest.webmanifest. */
export const FAVOURITES_MANIFEST_PATH = '/app.webmanifest';
export const STATIC_MANIFEST_PATH = '/manifest.webmanifest';

const VISOR_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface FavouriteShortcut {
  visorId: string;
  title: string;
}

function cleanTitle(title: string): string {
  // Control characters would make an unreadable shortcut; cut by code points, not halves of one.
  // eslint-disable-next-line no-control-regex
  const plain = title.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return Array.from(plain).slice(0, MAX_SHORTCUT_NAME).join('');
}

function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(value: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return null;
  try {
    const binary = atob(value.replaceAll('-', '+').replaceAll('_', '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/**
 * The cookie's value for these favourites (at most MAX_FAVOURITE_SHORTCUTS, titles cleaned), or
 * null when none can be a shortcut. At most about 2.5 KB: within a cookie's 4 KB.
 */
export function shortcutsCookieValue(favourites: readonly FavouriteShortcut[]): string | null {
  const usable = favourites.filter((favourite) => VISOR_ID.test(favourite.visorId) && cleanTitle(favourite.title) !== '');
  if (usable.length === 0) return null;
  return toBase64Url(JSON.stringify(usable.slice(0, MAX_FAVOURITE_SHORTCUTS).map((favourite) => `${favourite.visorId}:${cleanTitle(favourite.title)}`)));
}

/**
 * The `document.cookie` assignment that sets (or, with null, removes) the favourites' cookie:
 * sent to the manifest's path only, never from another site, and only over HTTPS when the page is.
 */
export function shortcutsCookie(value: string | null, secure: boolean): string {
  const attributes = `Path=${FAVOURITES_MANIFEST_PATH}; SameSite=Strict${secure ? '; Secure' : ''}`;
  return value == null ? `${SHORTCUTS_COOKIE}=; ${attributes}; Max-Age=0` : `${SHORTCUTS_COOKIE}=${value}; ${attributes}`;
}

/**
 * The manifest link's href: the built manifest without favourites; else the server's, with a
 * revision that changes when the favourites do (a new href is what makes the browser read the
 * manifest again). The revision is a counter: it says nothing of the favourites.
 */
export function manifestHref(revision: number | null): string {
  return revision == null ? STATIC_MANIFEST_PATH : `${FAVOURITES_MANIFEST_PATH}?r=${revision}`;
}

/** The value of the cookie `name` in a Cookie header, or undefined. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim();
  }
  return undefined;
}

export type ParsedShortcuts = { ok: true; shortcuts: FavouriteShortcut[] } | { ok: false; error: string };

/** The favourites of `<visor id>:<title>` values; a bad one is an error that says which and why. */
export function parseShortcutValues(values: readonly string[]): ParsedShortcuts {
  if (values.length > MAX_FAVOURITE_SHORTCUTS) {
    return { ok: false, error: `A lo sumo ${MAX_FAVOURITE_SHORTCUTS} accesos directos (llegaron ${values.length})` };
  }
  const shortcuts: FavouriteShortcut[] = [];
  for (const value of values) {
    const colon = value.indexOf(':');
    const visorId = colon < 0 ? value : value.slice(0, colon);
    const title = colon < 0 ? '' : cleanTitle(value.slice(colon + 1));
    if (!VISOR_ID.test(visorId)) return { ok: false, error: `Acceso directo inválido: "${value.slice(0, 80)}" no empieza con un visor_id y ":"` };
    if (title === '') return { ok: false, error: `Acceso directo sin título: ${visorId}` };
    shortcuts.push({ visorId, title });
  }
  return { ok: true, shortcuts };
}

/** The favourites of the cookie's value (none without one); a bad value is an error that says why. */
export function parseShortcutsCookie(value: string | undefined): ParsedShortcuts {
  if (value == null || value === '') return { ok: true, shortcuts: [] };
  const text = fromBase64Url(value);
  let values: unknown = null;
  try {
    values = text == null ? null : JSON.parse(text);
  } catch {
    // answered below
  }
  if (!Array.isArray(values) || !values.every((item) => typeof item === 'string')) {
    return { ok: false, error: `La cookie ${SHORTCUTS_COOKIE} no es una lista de accesos directos` };
  }
  return parseShortcutValues(values);
}

export interface ManifestShortcut {
  name: string;
  short_name?: string;
  url: string;
  icons?: unknown[];
}

/** The manifest with a shortcut per favourite after its own (Inicio), opening the visor as the Favoritos tree does. */
export function withFavouriteShortcuts<M extends { shortcuts?: ManifestShortcut[]; icons?: unknown[] }>(
  manifest: M,
  favourites: readonly FavouriteShortcut[],
): M {
  const own = manifest.shortcuts ?? [];
  const icons = own[0]?.icons;
  const added = favourites.map((favourite) => ({
    name: favourite.title,
    url: paths['visor-modo-publico'](favourite.visorId),
    ...(icons ? { icons } : {}),
  }));
  return { ...manifest, shortcuts: [...own, ...added] };
}
