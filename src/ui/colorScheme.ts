// The colour mode widgets draw their own popups in (the toaster, the emoji picker). Widgets
// take it as a prop; those used deep inside forms (EmojiField, EmojiTextInput) fall back to
// this context, which the root shell sets from the appearance settings.
import { createContext, useContext } from 'react';

export type ColorScheme = 'light' | 'dark' | 'system';

const ColorSchemeContext = createContext<ColorScheme>('system');

export const ColorSchemeProvider = ColorSchemeContext.Provider;

export function useColorScheme(): ColorScheme {
  return useContext(ColorSchemeContext);
}
