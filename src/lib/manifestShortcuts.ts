// The install manifest's shortcuts to the user's favourite visores (issue 21). A static manifest
// cannot know them: the page points its <link rel="manifest"> at /app.webmanifest with the
// favourites' ids and titles in the query (manifestQuery), and the server answers the built
// manifest with one shortcut more per favourite (parseShortcutQuery, withFavouriteShortcuts).
// Nothing is stored. Pure: the tab and the server both run it.
import { paths } from './paths';

/** Favourite visores offered as shortcuts, besides Inicio (launchers show a handful at most). */
export const MAX_FAVOURITE_SHORTCUTS = 6;
/** A shortcut's name is cut to this many characters. */
export const MAX_SHORTCUT_NAME = 60;
/** The query parameter, repeated: `<visor id>:<title>`. */
export const SHORTCUT_PARAM = 'v';
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

/** The manifest link's href for these favourites: the built manifest when there are none. */
export function manifestHref(favourites: readonly FavouriteShortcut[]): string {
  const usable = favourites.filter((favourite) => VISOR_ID.test(favourite.visorId) && cleanTitle(favourite.title) !== '');
  if (usable.length === 0) return STATIC_MANIFEST_PATH;
  const query = new URLSearchParams();
  for (const favourite of usable.slice(0, MAX_FAVOURITE_SHORTCUTS)) query.append(SHORTCUT_PARAM, `${favourite.visorId}:${cleanTitle(favourite.title)}`);
  return `${FAVOURITES_MANIFEST_PATH}?${query.toString()}`;
}

export type ParsedShortcuts = { ok: true; shortcuts: FavouriteShortcut[] } | { ok: false; error: string };

/** The favourites of a query's `v` values; a bad one is an error that says which and why. */
export function parseShortcutQuery(values: readonly string[]): ParsedShortcuts {
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
