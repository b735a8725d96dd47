import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { paths } from '../lib/paths';

/** Shown when a screen fails to load or render, instead of a blank page. */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error);
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Error desconocido';
  return (
    <main className="bare-layout">
      <section className="error-page">
        <h1>Algo salió mal</h1>
        <p>{message}</p>
        <Link to={paths.home()} className="button button--primary" reloadDocument>
          Volver al inicio
        </Link>
      </section>
    </main>
  );
}
