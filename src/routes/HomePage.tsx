import { useCurrentUser } from '../features/auth/useCurrentUser';

export function HomePage() {
  const user = useCurrentUser();
  return (
    <section className="page">
      <h1>Inicio</h1>
      <p className="page__lead">Hola, {user.firstName || user.username}.</p>
      <div className="card">
        <h2>Sus visores</h2>
        <p>Los visores, las carpetas y los favoritos aparecerán aquí cuando llegue el espacio de trabajo.</p>
      </div>
    </section>
  );
}
