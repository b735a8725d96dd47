import { Link } from 'react-router-dom';
import { useCurrentUser } from '../auth/useCurrentUser';
import { useWorkspace } from '../workspace/useWorkspaceData';
import { useRecentVisores } from '../../data/workspace';
import { openWorkspaceModal } from '../workspace/modalRequests';
import { formatMarketDate } from '../../lib/numberFormat';
import { paths } from '../../lib/paths';
import type { Visor } from '../../protocol/workspace';
import { Emoji } from '../../ui/Emoji';

const RECENT_COUNT = 6;

function VisorCard({ visor, date }: { visor: Pick<Visor, 'visor_id' | 'title' | 'emoji' | 'color'>; date: string }) {
  return (
    <li>
      <Link className="visor-card" to={paths['visor-modo-edicion'](visor.visor_id)} style={{ ['--visor-color' as string]: visor.color }}>
        <span className="visor-card__emoji" aria-hidden="true">
          <Emoji emoji={visor.emoji || '📊'} />
        </span>
        <span className="visor-card__title">{visor.title}</span>
        <small className="visor-card__date">{date}</small>
      </Link>
    </li>
  );
}

/** The market's day (Buenos Aires), as every date in the app, whatever the browser's zone. */
const day = (at: number | string) => formatMarketDate(typeof at === 'string' ? Date.parse(at) : at);

/**
 * Inicio: favourite visores, and Recientes, the ones this user opened most recently (kept per
 * user in Dexie by the data worker when a visor screen opens, so per browser), then the latest
 * changed; a call to create the first one when there are none.
 */
export function HomePage() {
  const user = useCurrentUser();
  const { visores } = useWorkspace();
  const opened = useRecentVisores(user._id, RECENT_COUNT) ?? [];
  // Opened ones first; while fewer than RECENT_COUNT were opened here, the latest changed own
  // visores fill the row (a new account's first visores show before they are opened).
  const openedIds = new Set(opened.map((entry) => entry.visor.visor_id));
  const recent = [
    ...opened.map(({ visor, openedAt }) => ({ visor, date: `Abierto el ${day(openedAt)}` })),
    ...[...(visores ?? [])]
      .filter((visor) => !openedIds.has(visor.visor_id))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .map((visor) => ({ visor, date: day(visor.updated_at) })),
  ].slice(0, RECENT_COUNT);
  const favourites = (visores ?? []).filter((visor) => visor.fav);
  return (
    <section className="page home">
      <h1>Inicio</h1>
      <p className="page__lead">Hola, {user.firstName || user.username}.</p>
      {visores === undefined ? (
        <p className="muted">Cargando…</p>
      ) : visores === null || visores.length === 0 ? (
        <div className="card home__empty">
          <h2>Todavía no tiene visores</h2>
          <p>Un visor reúne cotizaciones, gráficos, curvas y posiciones en una sola pantalla.</p>
          <button type="button" className="button button--primary" onClick={() => openWorkspaceModal({ kind: 'visor', mode: 'create', parentId: null })}>
            Crear mi primer visor
          </button>
        </div>
      ) : (
        <>
          {favourites.length > 0 && (
            <section aria-labelledby="home-favourites">
              <h2 id="home-favourites">Favoritos</h2>
              <ul className="visor-cards">
                {favourites.map((visor) => (
                  <VisorCard key={visor.visor_id} visor={visor} date={day(visor.updated_at)} />
                ))}
              </ul>
            </section>
          )}
          <section aria-labelledby="home-recent">
            <h2 id="home-recent">Recientes</h2>
            {recent.length === 0 ? (
              <p className="muted">Los visores que abra aparecen aquí.</p>
            ) : (
              <ul className="visor-cards">
                {recent.map(({ visor, date }) => (
                  <VisorCard key={visor.visor_id} visor={visor} date={date} />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </section>
  );
}
