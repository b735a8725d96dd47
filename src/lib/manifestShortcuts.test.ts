import { describe, expect, it } from 'vitest';
import {
  MAX_FAVOURITE_SHORTCUTS,
  cookieOf,
  manifestHref,
  parseShortcutValues,
  parseShortcutsCookie,
  shortcutsCookie,
  shortcutsCookieValue,
  withFavouriteShortcuts,
} from './manifestShortcuts';

describe('the favourites cookie', () => {
  it('is none without usable favourites', () => {
    expect(shortcutsCookieValue([])).toBeNull();
    expect(shortcutsCookieValue([{ visorId: 'bad id', title: 'X' }])).toBeNull();
    expect(shortcutsCookieValue([{ visorId: 'ok', title: ' \u0007 ' }])).toBeNull();
  });

  it('carries each favourite, at most the limit, as cookie-safe text that round-trips through the parser', () => {
    const favourites = Array.from({ length: MAX_FAVOURITE_SHORTCUTS + 2 }, (_, index) => ({ visorId: `v${index}`, title: `Dólar: ${index} & más; "ya"` }));
    const value = shortcutsCookieValue(favourites)!;
    expect(value).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parseShortcutsCookie(value)).toEqual({ ok: true, shortcuts: favourites.slice(0, MAX_FAVOURITE_SHORTCUTS) });
  });

  it('stays within a cookie’s 4 KB with the longest titles of the widest characters', () => {
    const favourites = Array.from({ length: MAX_FAVOURITE_SHORTCUTS }, (_, index) => ({ visorId: `${index}`.padEnd(64, 'x'), title: '😀"'.repeat(100) }));
    const cookie = shortcutsCookie(shortcutsCookieValue(favourites), true);
    expect(cookie.length).toBeLessThan(4000);
  });

  it('cuts long titles and drops control characters', () => {
    const parsed = parseShortcutsCookie(shortcutsCookieValue([{ visorId: 'a', title: `x\u0007${'é'.repeat(100)}` }])!);
    expect(parsed).toEqual({ ok: true, shortcuts: [{ visorId: 'a', title: `x ${'é'.repeat(58)}` }] });
  });

  it('is sent to the manifest only, never from another site, removed with null', () => {
    expect(shortcutsCookie('abc', false)).toBe('visores_atajos=abc; Path=/app.webmanifest; SameSite=Strict');
    expect(shortcutsCookie('abc', true)).toBe('visores_atajos=abc; Path=/app.webmanifest; SameSite=Strict; Secure');
    expect(shortcutsCookie(null, false)).toBe('visores_atajos=; Path=/app.webmanifest; SameSite=Strict; Max-Age=0');
  });

  it('is found in a Cookie header among others', () => {
    expect(cookieOf('a=1; visores_atajos=xyz; b=2', 'visores_atajos')).toBe('xyz');
    expect(cookieOf('visores_atajosx=1', 'visores_atajos')).toBeUndefined();
    expect(cookieOf(undefined, 'visores_atajos')).toBeUndefined();
  });

  it('refuses a value that is not a base64url JSON list of strings, saying what', () => {
    for (const bad of ['%%%', btoa('{"a":1}'), btoa('[1]'), btoa('not json')])
      expect(parseShortcutsCookie(bad)).toEqual({ ok: false, error: 'La cookie visores_atajos no es una lista de accesos directos' });
    expect(parseShortcutsCookie(undefined)).toEqual({ ok: true, shortcuts: [] });
  });
});

describe('manifestHref', () => {
  it('is the built manifest without favourites, else the server’s with a revision and nothing of the favourites', () => {
    expect(manifestHref(null)).toBe('/manifest.webmanifest');
    expect(manifestHref(3)).toBe('/app.webmanifest?r=3');
  });
});

describe('parseShortcutValues', () => {
  it('refuses a value without an id, a title, or too many values, saying why', () => {
    expect(parseShortcutValues(['no id here'])).toMatchObject({ ok: false, error: expect.stringContaining('visor_id') });
    expect(parseShortcutValues(['abc:  '])).toMatchObject({ ok: false, error: 'Acceso directo sin título: abc' });
    expect(parseShortcutValues(Array.from({ length: MAX_FAVOURITE_SHORTCUTS + 1 }, () => 'a:b'))).toMatchObject({ ok: false });
  });

  it('keeps colons of the title', () => {
    expect(parseShortcutValues(['a1:Hora: 10:30'])).toEqual({ ok: true, shortcuts: [{ visorId: 'a1', title: 'Hora: 10:30' }] });
  });
});

describe('withFavouriteShortcuts', () => {
  it('adds a shortcut per favourite after Inicio, to the visor, with Inicio’s icons', () => {
    const icons = [{ src: '/icons/icon-192.png', sizes: '192x192' }];
    const manifest = { name: 'Visores', shortcuts: [{ name: 'Inicio', url: '/', icons }] };
    expect(withFavouriteShortcuts(manifest, [{ visorId: 'v-1', title: 'MEP' }])).toEqual({
      name: 'Visores',
      shortcuts: [
        { name: 'Inicio', url: '/', icons },
        { name: 'MEP', url: '/visor/v-1/public', icons },
      ],
    });
    expect(manifest.shortcuts).toHaveLength(1);
  });
});
