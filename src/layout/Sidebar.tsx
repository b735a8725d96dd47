import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import { useCurrentUser } from '../features/auth/useCurrentUser';
import { paths } from '../lib/paths';
import { Icon, type IconName } from '../ui/Icon';
import { WorkspaceNav } from '../features/workspace/WorkspaceNav';

interface MenuLink {
  label: string;
  to: string;
  icon: IconName;
  /** true: admins only; false: everyone but admins; absent: everyone. */
  admin?: boolean;
  badge?: string | number;
  /** Pages under this one, listed below it (the data centers under Admin). */
  children?: MenuLink[];
}
interface MenuHeading {
  heading: string;
}
interface MenuGroup {
  label: string;
  icon: IconName;
  children: MenuLink[];
}
type MenuItem = MenuLink | MenuGroup | MenuHeading;

// Spec section 2, static entries in order.
const MENU: MenuItem[] = [
  {
    label: 'Admin',
    to: paths['home-admin'](),
    icon: 'shield',
    admin: true,
    children: [
      { label: 'Data center TV', to: paths['datacenter-tv'](), icon: 'chart' },
      { label: 'Data center ROFEX', to: paths['datacenter-rofex'](), icon: 'chart' },
      { label: 'Logs de operadores', to: paths['logs-operadores'](), icon: 'search' },
    ],
  },
  { label: 'Inicio', to: paths.home(), icon: 'home', admin: false },
  { label: 'Posiciones', to: paths.posiciones(), icon: 'briefcase', admin: true },
  { label: 'Usuarios', to: paths.users(), icon: 'users', admin: true },
  { label: 'Configuracion', icon: 'settings', children: [{ label: 'Perfil', to: paths['config-profile'](), icon: 'user' }] },
];

function visible(item: MenuLink, isAdmin: boolean): boolean {
  return item.admin == null || item.admin === isAdmin;
}

export function Sidebar({ onNavigate, onClose }: { onNavigate: () => void; onClose: () => void }) {
  const isAdmin = useCurrentUser().role === 'admin';
  const [openGroups, setOpenGroups] = useState<Record<string, boolean>>({ Configuracion: true });
  const closeOnSmallScreens = () => {
    if (window.innerWidth < 992) onNavigate();
  };

  return (
    <nav className="sidebar" aria-label="Menú principal">
      <div className="sidebar__header">
        <span className="sidebar__brand">Visores</span>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Cerrar menú">
          <Icon name="close" />
        </button>
      </div>
      <ul className="nav-main">
        {MENU.map((item) =>
          'heading' in item ? (
            <li key={`heading-${item.heading}`} className="nav-main__heading">
              {item.heading}
            </li>
          ) : !('to' in item) ? (
            <li key={item.label} className={`nav-main__group${openGroups[item.label] ? ' nav-main__group--open' : ''}`}>
              <button
                type="button"
                className="nav-main__link"
                aria-expanded={openGroups[item.label] ?? false}
                onClick={() => setOpenGroups((open) => ({ ...open, [item.label]: !open[item.label] }))}
              >
                <Icon name={item.icon} /> <span>{item.label}</span>
                <span className="nav-main__caret" aria-hidden="true">
                  ›
                </span>
              </button>
              {openGroups[item.label] && (
                <ul className="nav-main__submenu">
                  {item.children
                    .filter((child) => visible(child, isAdmin))
                    .map((child) => (
                      <li key={child.to}>
                        <NavLink to={child.to} className="nav-main__link" onClick={closeOnSmallScreens} end>
                          <Icon name={child.icon} /> <span>{child.label}</span>
                          {child.badge != null && <span className="nav-main__badge">{child.badge}</span>}
                        </NavLink>
                      </li>
                    ))}
                </ul>
              )}
            </li>
          ) : (
            visible(item, isAdmin) && (
              <li key={item.to}>
                <NavLink to={item.to} className="nav-main__link" onClick={closeOnSmallScreens} end>
                  <Icon name={item.icon} /> <span>{item.label}</span>
                  {item.badge != null && <span className="nav-main__badge">{item.badge}</span>}
                </NavLink>
                {item.children && (
                  <ul className="nav-main__submenu">
                    {item.children.map((child) => (
                      <li key={child.to}>
                        <NavLink to={child.to} className="nav-main__link" onClick={closeOnSmallScreens} end>
                          <Icon name={child.icon} /> <span>{child.label}</span>
                        </NavLink>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            )
          ),
        )}
      </ul>
      <WorkspaceNav onNavigate={closeOnSmallScreens} />
    </nav>
  );
}
