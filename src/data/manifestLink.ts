// The page's <link rel="manifest"> follows the signed-in user's favourite visores (issue 21):
// it points at the server's /app.webmanifest with their ids and titles, which answers the built
// manifest with a shortcut per favourite (lib/manifestShortcuts.ts, server/http/manifest.ts);
// without favourites, or signed out, at the built /manifest.webmanifest. The browser reads the
// link when it installs the app and when it refreshes an installed app's manifest.
import { useEffect } from 'react';
import { manifestHref, STATIC_MANIFEST_PATH } from '../lib/manifestShortcuts';
import { useFavourites } from './workspace';

function setManifestHref(href: string): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (link && link.getAttribute('href') !== href) link.setAttribute('href', href);
}

/** While mounted, the manifest link names `userId`'s favourite visores. */
export function useManifestShortcuts(userId: string | null | undefined): void {
  const favourites = useFavourites(userId);
  const href = manifestHref((favourites?.visores ?? []).map((visor) => ({ visorId: visor.visor_id, title: visor.title })));
  useEffect(() => {
    setManifestHref(href);
    return () => setManifestHref(STATIC_MANIFEST_PATH);
  }, [href]);
}
