import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useCurrentUser } from '../features/auth/useCurrentUser';
import { logOut as signOutHere } from '../data/logout';
import { paths } from '../lib/paths';
import { Icon } from '../ui/Icon';
import { SearchOverlay } from './SearchOverlay';
import { useNeedsServerReason } from '../data/offline';
import { appearanceStore, layoutOptionsAtom, settingsPanelOpenAtom, useAtom } from '../features/appearance/appearance';

export function Header({ onToggleSidebar }: { onToggleSidebar: () => void }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  // The search asks the server (issue 21: off, saying why, while it cannot be reached).
  const searchOff = useNeedsServerReason();
  const [layout, setLayout] = useAtom(layoutOptionsAtom, appearanceStore);
  const [settingsOpen, setSettingsOpen] = useAtom(settingsPanelOpenAtom, appearanceStore);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !menuRef.current?.contains(event.target as Node)) {
        setMenuOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [menuOpen]);

  const logOut = async () => {
    setMenuOpen(false);
    // Online or not: the session and its data leave this browser now; the server hears of it when it answers.
    await signOutHere(`Cierre de sesión de ${user.username} desde el menú de usuario`);
    navigate(paths['auth-signin'](), { replace: true });
  };

  return (
    <header className="header">
      <button type="button" className="icon-button header__sidebar-toggle" onClick={onToggleSidebar} aria-label="Mostrar u ocultar el menú">
        <Icon name="menu" />
      </button>
      <button
        type="button"
        className="icon-button header__mini-toggle"
        onClick={() => setLayout((current) => ({ ...current, sidebarMini: !current.sidebarMini }))}
        aria-label="Barra lateral mini"
        aria-pressed={layout.sidebarMini}
      >
        <Icon name="sidebar" />
      </button>
      <Link to={paths.home()} className="header__brand">
        Visores
      </Link>
      <div className="header__spacer" />
      <button
        type="button"
        className="icon-button"
        onClick={() => setSearchOpen(true)}
        aria-label="Buscar"
        disabled={searchOff != null}
        title={searchOff ?? 'Buscar'}
      >
        <Icon name="search" />
      </button>
      <button type="button" className="icon-button" onClick={() => setSettingsOpen(!settingsOpen)} aria-label="Apariencia" aria-expanded={settingsOpen}>
        <Icon name="palette" />
      </button>
      <div className="user-menu" ref={menuRef}>
        <button type="button" className="user-menu__button" aria-haspopup="menu" aria-expanded={menuOpen} onClick={() => setMenuOpen((open) => !open)}>
          <img className="avatar" src="/avatar.svg" alt="" width="32" height="32" />
          <span className="user-menu__username">{user.username}</span>
        </button>
        {menuOpen && (
          <div className="user-menu__dropdown" role="menu">
            <div className="user-menu__identity">
              <img className="avatar avatar--large" src="/avatar.svg" alt="" width="48" height="48" />
              <strong>{[user.firstName, user.lastName].filter(Boolean).join(' ') || user.username}</strong>
              <small>{user.username}</small>
            </div>
            <Link role="menuitem" to={paths['config-profile']()} onClick={() => setMenuOpen(false)}>
              <Icon name="user" /> Perfil
            </Link>
            <button role="menuitem" type="button" onClick={logOut}>
              <Icon name="logout" /> Log Out
            </button>
          </div>
        )}
      </div>
      {searchOpen && searchOff == null && <SearchOverlay onClose={() => setSearchOpen(false)} />}
    </header>
  );
}
