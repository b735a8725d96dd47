// The frame of every admin page (issue 20): a breadcrumb from Admin, the title, an optional
// lead line and actions, then the page. The pages are one module each in this folder.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../lib/paths';
import './admin.css';

export interface Crumb {
  label: string;
  /** A link; the last crumb (this page) has none. */
  to?: string;
}

interface AdminPageProps {
  title: string;
  /** The way here after `Admin` (which every admin page starts from), without this page. */
  trail?: Crumb[];
  lead?: ReactNode;
  /** Buttons at the right of the title (Nuevo usuario, Exportar CSV…). */
  actions?: ReactNode;
  children: ReactNode;
}

export function AdminPage({ title, trail = [], lead, actions, children }: AdminPageProps) {
  const isHome = title === 'Admin' && trail.length === 0;
  const crumbs: Crumb[] = isHome ? [{ label: 'Admin' }] : [{ label: 'Admin', to: paths['home-admin']() }, ...trail, { label: title }];
  return (
    <section className="page admin-page">
      <nav className="admin-page__crumbs" aria-label="Ruta">
        <ol>
          {crumbs.map((crumb, index) => (
            <li key={`${index}-${crumb.label}`}>
              {crumb.to ? <Link to={crumb.to}>{crumb.label}</Link> : <span aria-current={index === crumbs.length - 1 ? 'page' : undefined}>{crumb.label}</span>}
            </li>
          ))}
        </ol>
      </nav>
      <header className="admin-page__head">
        <div>
          <h1>{title}</h1>
          {lead && <p className="page__lead">{lead}</p>}
        </div>
        {actions && <div className="admin-page__actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** What a list or panel shows when it has nothing: what it would hold, and what to do. */
export function AdminEmpty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="admin-empty" role="status">
      <p className="admin-empty__title">{title}</p>
      {children && <p className="admin-empty__hint">{children}</p>}
    </div>
  );
}
