// The admin home (issue 20): the state of the installation at a glance, asked again every few
// seconds while the tab is visible. Each card links to the page that manages what it shows;
// what needs the operator (a stopped feed, a process that did not answer) stands out.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { adminLogsQueries } from '../../data/queries/adminLogs';
import { adminPositionsQueries } from '../../data/queries/adminPositions';
import { adminStatusQueries } from '../../data/queries/adminStatus';
import { paths } from '../../lib/paths';
import type { FeedAdminStatus } from '../../protocol/market';
import { AdminEmpty, AdminPage } from './AdminPage';
import { FeedStateBadge, StatusError } from './FeedStatus';
import { Sparkline } from './Sparkline';
import { FEED_LABELS, formatDuration, formatRate, formatWhen, shortProcess } from './statusFormat';
import { actionLabel } from './logActions';
import './adminStatus.css';

const NO_FILTERS = { user: '', action: '', from: '', to: '' };

function FeedCard({ feed }: { feed: FeedAdminStatus }) {
  const to = feed.name === 'tv' ? paths['datacenter-tv']() : paths['datacenter-rofex']();
  const stopped = feed.state !== 'running';
  return (
    <article className={`card status-card${stopped ? ' status-card--problem' : ''}`} aria-labelledby={`feed-${feed.name}`} data-feed={feed.name}>
      <header className="status-card__head">
        <h2 id={`feed-${feed.name}`}>Data center {FEED_LABELS[feed.name]}</h2>
        <FeedStateBadge feed={feed} />
      </header>
      <dl className="status-figures">
        <div>
          <dt>Ticks por segundo</dt>
          <dd data-field="tps">{formatRate(feed.recentTicksPerSecond)}</dd>
        </div>
        <div>
          <dt>Símbolos suscriptos</dt>
          <dd>{feed.subscribedSymbols}</dd>
        </div>
        <div>
          <dt>Sockets</dt>
          <dd>{feed.clients}</dd>
        </div>
        <div>
          <dt>Proceso</dt>
          <dd className="status-mono">{feed.process ? shortProcess(feed.process) : <span className="status-problem-text">ninguno</span>}</dd>
        </div>
      </dl>
      <Sparkline samples={feed.samples} label={`Ticks por segundo de ${FEED_LABELS[feed.name]} en los últimos 10 minutos`} />
      {feed.lastError && <p className="status-problem-text">{feed.lastError}</p>}
      <Link className="status-card__link" to={to}>
        Abrir data center {FEED_LABELS[feed.name]}
      </Link>
    </article>
  );
}

export function AdminHomePage() {
  const feeds = useQuery(adminStatusQueries.feeds());
  const signedIn = useQuery(adminStatusQueries.signedIn());
  const broker = useQuery(adminPositionsQueries.sessions());
  const logs = useInfiniteQuery({ ...adminLogsQueries.list(NO_FILTERS, 5), refetchInterval: 10_000, refetchIntervalInBackground: false });
  // Durations as of the last answer (it comes every few seconds).
  const now = feeds.dataUpdatedAt;
  const status = feeds.data;
  const marketSockets = status?.processes.reduce((sum, process) => sum + process.sockets, 0) ?? 0;
  const positionsSockets = status?.processes.reduce((sum, process) => sum + process.positionsSockets, 0) ?? 0;
  const accounts = broker.data?.reduce((sum, session) => sum + session.accounts.length, 0) ?? 0;
  const latest = logs.data?.pages[0]?.data ?? [];
  // What needs the operator, in one line at the top.
  const problems = status
    ? [
        ...status.data.filter((feed) => feed.state !== 'running').map((feed) => `el data center ${FEED_LABELS[feed.name]} está detenido`),
        ...status.data.filter((feed) => feed.state === 'running' && feed.lastError).map((feed) => `el data center ${FEED_LABELS[feed.name]} informa un error`),
      ]
    : [];

  return (
    <AdminPage title="Admin" lead="El estado de la instalación, actualizado cada pocos segundos.">
      <StatusError error={feeds.error} what="el estado de los procesos y los feeds" />
      {status && status.silent > 0 && (
        <p className="status-alert" role="alert">
          {status.silent === 1 ? 'Un proceso no respondió' : `${status.silent} procesos no respondieron`} a tiempo: sus sockets y feeds no se cuentan.
        </p>
      )}
      {status && problems.length > 0 && (
        <p className="status-alert" role="alert" data-field="problems">
          Atención: {problems.join('; ')}.
        </p>
      )}
      {status && problems.length === 0 && status.silent === 0 && (
        <p className="status-ok" data-field="problems">
          Todo en orden: los dos data centers están en marcha y todos los procesos respondieron.
        </p>
      )}
      <div className="status-grid">
        {status?.data.map((feed) => (
          <FeedCard key={feed.name} feed={feed} />
        ))}

        <article className={`card status-card${status && status.silent > 0 ? ' status-card--problem' : ''}`} aria-labelledby="status-processes">
          <header className="status-card__head">
            <h2 id="status-processes">Procesos</h2>
            <span className="status-count">{status?.processes.length ?? '—'}</span>
          </header>
          {status && status.processes.length > 0 ? (
            <ul className="status-list">
              {status.processes.map((process) => (
                <li key={process.process}>
                  <span className="status-mono" title={process.process}>
                    {shortProcess(process.process)}
                    {process.process === status.self && <span className="muted"> (este)</span>}
                  </span>
                  <span className="muted">
                    activo hace {formatDuration(now - process.startedAt)} · {process.sockets} de mercado · {process.positionsSockets} de posiciones
                    {process.feeds.length > 0 && ` · corre ${process.feeds.map((name) => FEED_LABELS[name]).join(' y ')}`}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <AdminEmpty title="Sin procesos">Ningún proceso respondió todavía.</AdminEmpty>
          )}
        </article>

        <article className="card status-card" aria-labelledby="status-sockets">
          <header className="status-card__head">
            <h2 id="status-sockets">Sockets abiertos</h2>
          </header>
          <dl className="status-figures">
            <div>
              <dt>De mercado</dt>
              <dd data-field="market-sockets">{marketSockets}</dd>
            </div>
            <div>
              <dt>De posiciones</dt>
              <dd data-field="positions-sockets">{positionsSockets}</dd>
            </div>
          </dl>
          <p className="status-card__links">
            <Link to={paths['datacenter-rofex']()}>Sockets de mercado</Link> · <Link to={paths.posiciones()}>Posiciones</Link>
          </p>
        </article>

        <article className="card status-card" aria-labelledby="status-users">
          <header className="status-card__head">
            <h2 id="status-users">Usuarios conectados</h2>
            <span className="status-count" data-field="signed-in">
              {signedIn.data?.length ?? '—'}
            </span>
          </header>
          <StatusError error={signedIn.error} what="los usuarios conectados" />
          {signedIn.data && signedIn.data.length === 0 && <AdminEmpty title="Nadie conectado">No hay sesiones abiertas.</AdminEmpty>}
          {signedIn.data && signedIn.data.length > 0 && (
            <ul className="status-list">
              {signedIn.data.slice(0, 6).map((user) => (
                <li key={user.id}>
                  <span>
                    {user.username}
                    {user.role === 'admin' && <span className="muted"> (admin)</span>}
                  </span>
                  <span className="muted">
                    {user.sessions === 1 ? '1 sesión' : `${user.sessions} sesiones`} · usó la app {formatWhen(user.lastUsedAt, now)}
                  </span>
                </li>
              ))}
              {signedIn.data.length > 6 && <li className="muted">y {signedIn.data.length - 6} más</li>}
            </ul>
          )}
          <Link className="status-card__link" to={paths.users()}>
            Administrar usuarios
          </Link>
        </article>

        <article className="card status-card" aria-labelledby="status-broker">
          <header className="status-card__head">
            <h2 id="status-broker">Sesiones de broker</h2>
            <span className="status-count" data-field="broker-sessions">
              {broker.data?.length ?? '—'}
            </span>
          </header>
          <StatusError error={broker.error} what="las sesiones de broker" />
          {broker.data && broker.data.length === 0 && <AdminEmpty title="Sin sesiones de broker">Nadie conectó un broker.</AdminEmpty>}
          {broker.data && broker.data.length > 0 && (
            <p className="muted">
              {accounts === 1 ? '1 cuenta' : `${accounts} cuentas`} de {new Set(broker.data.map((session) => session.user)).size} usuario(s);{' '}
              {broker.data.filter((session) => session.broker === 'primary').length} con Primary API.
            </p>
          )}
          <Link className="status-card__link" to={paths.posiciones()}>
            Ver posiciones
          </Link>
        </article>

        <article className="card status-card status-card--wide" aria-labelledby="status-logs">
          <header className="status-card__head">
            <h2 id="status-logs">Últimas acciones</h2>
          </header>
          {logs.data && latest.length === 0 && <AdminEmpty title="El log está vacío">Las acciones de los usuarios aparecerán aquí.</AdminEmpty>}
          {latest.length > 0 && (
            <ul className="status-list">
              {latest.map((row) => (
                <li key={row.id}>
                  <span>
                    {row.username ?? '—'} · {actionLabel(row.action)}
                  </span>
                  <span className="muted">{formatWhen(Date.parse(row.at), now)}</span>
                </li>
              ))}
            </ul>
          )}
          <Link className="status-card__link" to={paths['logs-operadores']()}>
            Ver logs de operadores
          </Link>
        </article>
      </div>
    </AdminPage>
  );
}
