import { useEffect, useState } from 'react';
import { colorThemeAtom, darkModeAtom, headerStyleAtom, layoutOptionsAtom, resolveDark, sidebarStyleAtom, appearanceStore, useAtomValue } from './appearance';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function useSystemDark(): boolean {
  const [dark, setDark] = useState(() => window.matchMedia(DARK_QUERY).matches);
  useEffect(() => {
    const query = window.matchMedia(DARK_QUERY);
    const update = () => setDark(query.matches);
    query.addEventListener('change', update);
    update();
    return () => query.removeEventListener('change', update);
  }, []);
  return dark;
}

/**
 * Applies the appearance choices to <html> as data attributes (the CSS of themes.css and
 * layout.css keys on them) and pauses transitions for 500 ms after a window resize.
 */
export function AppearanceSync() {
  const mode = useAtomValue(darkModeAtom, appearanceStore);
  const colorTheme = useAtomValue(colorThemeAtom, appearanceStore);
  const sidebarStyle = useAtomValue(sidebarStyleAtom, appearanceStore);
  const headerStyle = useAtomValue(headerStyleAtom, appearanceStore);
  const layout = useAtomValue(layoutOptionsAtom, appearanceStore);
  const systemDark = useSystemDark();
  const dark = resolveDark(mode, systemDark);

  useEffect(() => {
    const html = document.documentElement;
    html.dataset.theme = dark ? 'dark' : 'light';
    html.dataset.colorMode = mode;
    html.dataset.colorTheme = colorTheme;
    // In dark mode the sidebar follows the dark palette; its own style applies when it is off.
    html.dataset.sidebarStyle = dark ? 'dark' : sidebarStyle;
    html.dataset.headerStyle = headerStyle; // the spec's light header by default, in both modes
    html.dir = layout.rtl ? 'rtl' : 'ltr';
  }, [dark, mode, colorTheme, sidebarStyle, headerStyle, layout.rtl]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      document.documentElement.classList.add('no-transitions');
      clearTimeout(timer);
      timer = setTimeout(() => document.documentElement.classList.remove('no-transitions'), 500);
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      clearTimeout(timer);
    };
  }, []);
  return null;
}
