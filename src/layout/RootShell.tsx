import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { NavigationProgress } from '../ui/NavigationProgress';
import { AppearanceSync } from '../features/appearance/AppearanceSync';
import { appearanceStore, darkModeAtom, useAtomValue } from '../features/appearance/appearance';
import { AppToaster } from '../ui/AppToaster';
import { ColorSchemeProvider } from '../ui/colorScheme';

/** Wraps every screen: the navigation progress bar, the toaster and scroll-to-top on each navigation. */
export function RootShell() {
  const location = useLocation();
  const colorMode = useAtomValue(darkModeAtom, appearanceStore);
  useEffect(() => {
    // Spec: every navigation scrolls to the top (not restored on back/forward).
    window.scrollTo(0, 0);
  }, [location.key]);
  return (
    <ColorSchemeProvider value={colorMode}>
      <AppearanceSync />
      <NavigationProgress />
      <AppToaster theme={colorMode} />
      <Outlet />
    </ColorSchemeProvider>
  );
}
