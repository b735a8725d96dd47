import { Link, useLocation } from 'react-router-dom';
import { paths } from '../lib/paths';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section className="error-page">
      <p className="error-page__code">404</p>
      <h1>Página no encontrada</h1>
      <p>
        No existe la página <code>{pathname}</code>.
      </p>
      <Link to={paths.home()} className="button button--primary">
        Ir al inicio
      </Link>
    </section>
  );
}
