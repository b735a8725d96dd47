// Appearance choices of the backend layout (spec section 2, Layout). The four the spec
// names (darkMode, colorTheme, sidebarStyle, headerStyle) are kept in local storage, read at
// start and saved on each change; public/theme.js (loaded by index.html) applies the same keys
// to <html> before the first paint. The other layout options last for the session.
import { atom, useAtom, useAtomValue } from 'jotai';
import { dataStore } from '../../data/store';

export const COLOR_MODES = ['light', 'dark', 'system'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];
export const COLOR_THEMES = ['default', 'amethyst', 'city', 'flat', 'modern', 'smooth'] as const;
export type ColorTheme = (typeof COLOR_THEMES)[number];
export const BAR_STYLES = ['light', 'dark'] as const;
export type BarStyle = (typeof BAR_STYLES)[number];

/** Local-storage keys, as the spec names the choices. public/theme.js reads the same keys. */
export const STORAGE_KEYS = {
  darkMode: 'darkMode',
  colorTheme: 'colorTheme',
  sidebarStyle: 'sidebarStyle',
  headerStyle: 'headerStyle',
} as const;

export const DEFAULTS = {
  darkMode: 'dark' as ColorMode, // dark mode is on by default
  colorTheme: 'default' as ColorTheme,
  sidebarStyle: 'dark' as BarStyle,
  headerStyle: 'light' as BarStyle, // the spec's light header
};

function read<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = localStorage.getItem(key);
    return value != null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

function persisted<T extends string>(key: string, allowed: readonly T[], fallback: T) {
  const base = atom<T>(read(key, allowed, fallback));
  return atom(
    (get) => get(base),
    (_get, set, value: T) => {
      set(base, value);
      try {
        localStorage.setItem(key, value);
      } catch {
        // private mode or full storage: the choice lasts for this page only
      }
    },
  );
}

export const darkModeAtom = persisted(STORAGE_KEYS.darkMode, COLOR_MODES, DEFAULTS.darkMode);
export const colorThemeAtom = persisted(STORAGE_KEYS.colorTheme, COLOR_THEMES, DEFAULTS.colorTheme);
export const sidebarStyleAtom = persisted(STORAGE_KEYS.sidebarStyle, BAR_STYLES, DEFAULTS.sidebarStyle);
export const headerStyleAtom = persisted(STORAGE_KEYS.headerStyle, BAR_STYLES, DEFAULTS.headerStyle);

/** Session-only layout options. */
export interface LayoutOptions {
  sidebarMini: boolean;
  sidebarRight: boolean;
  contentWidth: 'full' | 'boxed' | 'narrow';
  rtl: boolean;
  horizontalNav: boolean;
  pageLoader: boolean;
}
export const layoutOptionsAtom = atom<LayoutOptions>({
  sidebarMini: false,
  sidebarRight: false,
  contentWidth: 'full',
  rtl: false,
  horizontalNav: false,
  pageLoader: false,
});

/** The settings panel ('Apariencia') is open. */
export const settingsPanelOpenAtom = atom(false);

/** The app's one jotai store (src/data/store.ts) holds these atoms too. */
export const appearanceStore = { store: dataStore };
export { useAtom, useAtomValue };

/** Whether the page is dark now: dark, or system with a dark system preference. */
export function resolveDark(mode: ColorMode, systemDark: boolean): boolean {
  return mode === 'dark' || (mode === 'system' && systemDark);
}
