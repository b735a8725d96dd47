import { useEffect, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet, useNavigation } from 'react-router-dom';
import { queryClient } from '../data/queries/client';
import { Header } from './Header';
import { Sidebar } from './Sidebar';
import { Footer } from './Footer';
import { OfflineBanner } from './OfflineBanner';
import { SettingsPanel } from '../features/appearance/SettingsPanel';
import { appearanceStore, layoutOptionsAtom, useAtomValue } from '../features/appearance/appearance';
import { useManifestShortcuts } from '../data/manifestLink';
import { useCurrentUser } from '../features/auth/useCurrentUser';
import './layout.css';

/**
 * Header, sidebar, side overlay and footer around every signed-in screen, and the server state
 * they read (TanStack Query: only signed-in screens use it, so the sign-in page does not load it).
 */
export function BackendLayout() {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const layout = useAtomValue(layoutOptionsAtom, appearanceStore);
  const loading = useNavigation().state === 'loading';
  // The install manifest's shortcuts: Inicio and this user's favourite visores.
  useManifestShortcuts(useCurrentUser()._id);
  useEffect(() => {
    if (!sidebarOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setSidebarOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [sidebarOpen]);
  const classes = [
    'backend-layout',
    sidebarOpen && 'backend-layout--sidebar-open',
    layout.sidebarMini && 'backend-layout--mini',
    layout.sidebarRight && 'backend-layout--right',
    layout.horizontalNav && 'backend-layout--horizontal',
    `backend-layout--content-${layout.contentWidth}`,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <QueryClientProvider client={queryClient}>
      <div className={classes}>
        <Sidebar onNavigate={() => setSidebarOpen(false)} onClose={() => setSidebarOpen(false)} />
        <div className="side-overlay" onClick={() => setSidebarOpen(false)} aria-hidden="true" />
        <div className="backend-main">
          <Header onToggleSidebar={() => setSidebarOpen((open) => !open)} />
          <OfflineBanner />
          <main className="backend-content" id="main-content">
            {layout.pageLoader && loading && (
              <div className="page-loader" role="status" aria-label="Cargando">
                <span className="page-loader__spinner" />
              </div>
            )}
            <div className="backend-content__inner">
              <Outlet />
            </div>
          </main>
          <Footer />
        </div>
        <SettingsPanel />
      </div>
    </QueryClientProvider>
  );
}
