import { useEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { Header } from './Header';
import { Sidebar } from './Sidebar';
import { Footer } from './Footer';

/** Header, sidebar, side overlay and footer around every signed-in screen. */
export function BackendLayout() {
  const [sidebarOpen, setSidebarOpen] = useState(false);
  useEffect(() => {
    if (!sidebarOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setSidebarOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [sidebarOpen]);
  return (
    <div className={`backend-layout${sidebarOpen ? ' backend-layout--sidebar-open' : ''}`}>
      <Sidebar onNavigate={() => setSidebarOpen(false)} onClose={() => setSidebarOpen(false)} />
      <div className="side-overlay" onClick={() => setSidebarOpen(false)} aria-hidden="true" />
      <div className="backend-main">
        <Header onToggleSidebar={() => setSidebarOpen((open) => !open)} />
        <main className="backend-content" id="main-content">
          <Outlet />
        </main>
        <Footer />
      </div>
    </div>
  );
}
