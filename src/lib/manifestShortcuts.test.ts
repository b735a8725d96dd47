import { describe, expect, it } from 'vitest';
import { MAX_FAVOURITE_SHORTCUTS, manifestHref, parseShortcutQuery, withFavouriteShortcuts } from './manifestShortcuts';

const valuesOf = (href: string) => new URL(href, 'http://x').searchParams.getAll('v');

describe('manifestHref', () => {
  it('is the built manifest without favourites', () => {
    expect(manifestHref([])).toBe('/manifest.webmanifest');
    expect(manifestHref([{ visorId: 'bad id', title: 'X' }])).toBe('/manifest.webmanifest');
  });

  it('carries each favourite as id:title, at most the limit, and round-trips through the parser', () => {
    const favourites = Array.from({ length: MAX_FAVOURITE_SHORTCUTS + 2 }, (_, index) => ({ visorId: `v${index}`, title: `Dólar: ${index} & más` }));
    const href = manifestHref(favourites);
    expect(href.startsWith('/app.webmanifest?')).toBe(true);
    const values = valuesOf(href);
    expect(values).toHaveLength(MAX_FAVOURITE_SHORTCUTS);
    expect(parseShortcutQuery(values)).toEqual({ ok: true, shortcuts: favourites.slice(0, MAX_FAVOURITE_SHORTCUTS) });
  });

  it('cuts long titles and drops control characters', () => {
    const [value] = valuesOf(manifestHref([{ visorId: 'a', title: `x\u0007${'é'.repeat(100)}` }]));
    expect(value).toBe(`a:x ${'é'.repeat(58)}`);
  });
});

describe('parseShortcutQuery', () => {
  it('refuses a value without an id, a title, or too many values, saying why', () => {
    expect(parseShortcutQuery(['no id here'])).toMatchObject({ ok: false, error: expect.stringContaining('visor_id') });
    expect(parseShortcutQuery(['abc:  '])).toMatchObject({ ok: false, error: 'Acceso directo sin título: abc' });
    expect(parseShortcutQuery(Array.from({ length: MAX_FAVOURITE_SHORTCUTS + 1 }, () => 'a:b'))).toMatchObject({ ok: false });
  });

  it('keeps colons of the title', () => {
    expect(parseShortcutQuery(['a1:Hora: 10:30'])).toEqual({ ok: true, shortcuts: [{ visorId: 'a1', title: 'Hora: 10:30' }] });
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
