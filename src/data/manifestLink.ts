// The page's <link rel="manifest"> follows the signed-in user's favourite visores (issue 21):
// their ids and titles go in a cookie only the manifest's path gets, and the link points at the
// server's /app.webmanifest, asked with credentials, which answers the built manifest with a
// shortcut per favourite (lib/manifestShortcuts.ts, server/http/manifest.ts); without
// favourites, or signed out, the cookie is removed and the link is the built
// /manifest.webmanifest. The browser reads the link when it installs the app and when it
// refreshes an installed app's manifest. The titles never go in the URL (access logs keep URLs).
import { useEffect } from 'react';
import { manifestHref, shortcutsCookie, shortcutsCookieValue, STATIC_MANIFEST_PATH } from '../lib/manifestShortcuts';
import { useFavourites } from './workspace';

/** Counts the cookie's changes: a new href for each, so the browser reads the manifest again. */
let revision = 0;

function setManifestHref(href: string): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (!link || link.getAttribute('href') === href) return;
  // Before the href: the fetch a new href starts carries the cookie.
  link.crossOrigin = 'use-credentials';
  link.setAttribute('href', href);
}

function setShortcutsCookie(value: string | null): void {
  document.cookie = shortcutsCookie(value, location.protocol === 'https:');
}

/** While mounted, the manifest link names `userId`'s favourite visores. */
export function useManifestShortcuts(userId: string | null | undefined): void {
  const favourites = useFavourites(userId);
  const value = shortcutsCookieValue((favourites?.visores ?? []).map((visor) => ({ visorId: visor.visor_id, title: visor.title })));
  useEffect(() => {
    setShortcutsCookie(value);
    setManifestHref(manifestHref(value == null ? null : ++revision));
    return () => {
      setShortcutsCookie(null);
      setManifestHref(STATIC_MANIFEST_PATH);
    };
  }, [value]);
}
