import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { NavigationProgress } from '../ui/NavigationProgress';
import { AppearanceSync } from '../features/appearance/AppearanceSync';
import { AppToaster } from '../ui/AppToaster';

/** Wraps every screen: the navigation progress bar and scroll-to-top on each navigation. */
export function RootShell() {
  const location = useLocation();
  useEffect(() => {
    // Spec: every navigation scrolls to the top (not restored on back/forward).
    window.scrollTo(0, 0);
  }, [location.key]);
  return (
    <>
      <AppearanceSync />
      <NavigationProgress />
      <AppToaster />
      <Outlet />
    </>
  );
}
