// Posiciones (`/posiciones`, admin): the broker sessions of every process with their accounts
// and the positions sockets subscribed to each (GET /admin/positions, read every few
// seconds); connect a session (BrokerConnectForm); watch and stop watching an account of a
// session the admin connected, and see its live positions and fills with the visor's own
// components (PositionsTable, FillsList); the worker's positions connection, what it holds
// for each watched account, and its event log.
import { useQuery } from '@tanstack/react-query';
import { formatMarketTime } from '../../lib/numberFormat';
import { useNeedsServerReason } from '../../data/offline';
import { adminPositionsQueries } from '../../data/queries/adminPositions';
import { workerQueries } from '../../data/queries/eventLog';
import { useFills, usePositions, usePositionsStatus } from '../../data/store';
import type { AdminBrokerSession } from '../../protocol/broker';
import { EventLogEntries } from '../quoteBoard/EventLog';
import { useCurrentUser } from '../auth/useCurrentUser';
import { FillsList } from '../visor/sections/positions/FillsList';
import { PositionsTable } from '../visor/sections/positions/PositionsTable';
import { POSITIONS_STATE_TEXT } from '../visor/sections/positions/positionsMessages';
import { AdminEmpty, AdminPage } from './AdminPage';
import { formatDateTime } from './statusFormat';
import { BrokerConnectForm } from './BrokerConnectForm';
import { useAdminWatches, type AdminWatch } from './useAdminWatches';
import '../visor/sections/positions/positions.css';
import './adminParts.css';
import './positionsAdmin.css';

const POSITIONS_LOG_PREFIX = 'Posiciones:';
const when = (iso: string | null) => (iso == null ? null : <time dateTime={iso}>{formatDateTime(iso)}</time>);

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function brokerText(session: AdminBrokerSession) {
  return session.broker === 'paper' ? 'Simulador (sim://)' : session.url;
}

interface SessionsTableProps {
  sessions: AdminBrokerSession[];
  me: string;
  watches: AdminWatch[];
  onWatch: (account: string, sessionId: string) => void;
  onStop: (account: string) => void;
}

function SessionsTable({ sessions, me, watches, onWatch, onStop }: SessionsTableProps) {
  // Watching asks the broker session on the server: off while it cannot be reached (issue 21).
  const offline = useNeedsServerReason();
  return (
    <div className="pos-admin-table-wrap">
      <table className="pos-admin-table" aria-label="Sesiones de broker">
        <thead>
          <tr>
            <th scope="col">Usuario</th>
            <th scope="col">Broker</th>
            <th scope="col">Conectada</th>
            <th scope="col">Cuenta</th>
            <th scope="col">Vigilada</th>
            <th scope="col">Sockets</th>
            <th scope="col">Última valuación</th>
            <th scope="col">
              <span className="visually-hidden">Acciones</span>
            </th>
          </tr>
        </thead>
        {sessions.map((session) => {
          const mine = session.user === me;
          const rows = session.accounts.length === 0 ? [null] : session.accounts;
          return (
            <tbody key={session.sessionId} data-session={session.sessionId} data-user={session.user}>
              {rows.map((account, index) => {
                const watch = account ? watches.find((item) => item.account === account.account && item.sessionId === session.sessionId) : undefined;
                return (
                  <tr key={account?.account ?? 'none'} data-account={account?.account}>
                    {index === 0 && (
                      <>
                        <th scope="rowgroup" rowSpan={rows.length}>
                          {session.user}
                        </th>
                        <td rowSpan={rows.length}>{brokerText(session)}</td>
                        <td rowSpan={rows.length}>{when(session.connectedAt)}</td>
                      </>
                    )}
                    {account == null ? (
                      <td colSpan={5} className="pos-admin-muted">
                        Sin cuentas
                      </td>
                    ) : (
                      <>
                        <td>
                          <code>{account.account}</code>
                          {account.lastError && (
                            <span className="pos-admin-error" title={account.lastError}>
                              {' '}
                              ⚠ {account.lastError}
                            </span>
                          )}
                        </td>
                        <td>{account.watched ? 'Sí' : 'No'}</td>
                        <td data-field="subscribers">{account.subscribers}</td>
                        <td>{when(account.as_of) ?? <span className="pos-admin-muted">—</span>}</td>
                        <td className="pos-admin-actions">
                          {!mine ? (
                            <span className="pos-admin-muted" title="Solo quien conectó la sesión puede ver sus cuentas">
                              De {session.user}
                            </span>
                          ) : watch ? (
                            <button type="button" className="button button--small" onClick={() => onStop(account.account)}>
                              Dejar de vigilar
                            </button>
                          ) : (
                            <button
                              type="button"
                              className="button button--small button--primary"
                              onClick={() => onWatch(account.account, session.sessionId)}
                              disabled={offline != null}
                              title={offline ?? undefined}
                            >
                              Vigilar
                            </button>
                          )}
                        </td>
                      </>
                    )}
                  </tr>
                );
              })}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}

function WatchedAccount({ watch, onStop }: { watch: AdminWatch; onStop: (account: string) => void }) {
  const snapshot = usePositions(watch.account);
  const fills = useFills(watch.account);
  const { account } = watch;
  return (
    <section className="card pos-admin-account" aria-label={`Cuenta ${account}`} data-account={account}>
      <header className="pos-admin-account__head">
        <h3>
          Cuenta <code>{account}</code>
        </h3>
        <span className="pos-admin-muted">
          {watch.state === 'starting' ? (
            'Empezando a vigilar…'
          ) : watch.state === 'error' ? (
            'No se pudo vigilar'
          ) : snapshot ? (
            <>Valuada {when(snapshot.as_of)}</>
          ) : (
            'Esperando la primera valuación…'
          )}
        </span>
        <button type="button" className="button button--small" onClick={() => onStop(account)}>
          Dejar de vigilar
        </button>
      </header>
      {watch.problem ? (
        <p className="form-error" role="alert">
          {watch.problem}
        </p>
      ) : (
        <div className="pos-admin-account__data">
          {/* Focusable: a narrow screen scrolls these tables sideways, also from the keyboard. */}
          <div tabIndex={0} role="region" aria-label={`Posiciones de la cuenta ${account}`}>
            <h4>Posiciones</h4>
            {snapshot == null ? (
              <p className="vs-empty">Esperando la primera valuación del broker…</p>
            ) : (
              <PositionsTable positions={snapshot.positions} label={`Posiciones de ${account}`} />
            )}
          </div>
          <div tabIndex={0} role="region" aria-label={`Operaciones de la cuenta ${account}`}>
            <h4>Operaciones</h4>
            <FillsList fills={fills} label={`Operaciones de ${account}`} limit={50} />
          </div>
        </div>
      )}
    </section>
  );
}

/** What the data worker holds for the watched accounts: the positions socket and each account's snapshot. */
function WorkerState({ watches }: { watches: AdminWatch[] }) {
  const status = usePositionsStatus();
  return (
    <section className="card pos-admin-worker" aria-labelledby="pos-admin-worker">
      <h2 id="pos-admin-worker">Estado del worker</h2>
      <p className="vs-pos-state" role="status" data-state={status.state}>
        <span className="vs-pos-state__dot" aria-hidden="true" />
        Conexión de posiciones: {POSITIONS_STATE_TEXT[status.state]}
        {status.lastError && <span className="pos-admin-muted"> ({status.lastError})</span>}
        {status.state === 'open' && <span className="pos-admin-muted">{status.authenticated ? ' · autenticada' : ' · autenticando…'}</span>}
      </p>
      {watches.length > 0 && (
        <ul className="pos-admin-worker__accounts">
          {watches.map((watch) => (
            <WorkerAccount key={watch.account} account={watch.account} />
          ))}
        </ul>
      )}
      <PositionsLog />
      <details className="pos-admin-log">
        <summary>Registro de eventos completo</summary>
        <EventLogEntries />
      </details>
    </section>
  );
}

/** The worker's log lines of the positions connection and its accounts (they start with 'Posiciones:'), newest first. */
function PositionsLog() {
  const log = useQuery(workerQueries.eventLog());
  const lines = (log.data ?? []).filter((entry) => entry.text.startsWith(POSITIONS_LOG_PREFIX)).reverse();
  return (
    <div className="pos-admin-log">
      <h3>Registro de posiciones</h3>
      {lines.length === 0 ? (
        <p className="pos-admin-muted">Sin eventos de posiciones todavía.</p>
      ) : (
        <ol className="pos-admin-log__list" aria-label="Eventos de posiciones" tabIndex={0}>
          {lines.slice(0, 50).map((entry, index) => (
            <li key={`${entry.time}-${lines.length - index}`} data-level={entry.level}>
              <time dateTime={new Date(entry.time).toISOString()}>{formatMarketTime(entry.time)}</time> {entry.text.slice(POSITIONS_LOG_PREFIX.length).trim()}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function WorkerAccount({ account }: { account: string }) {
  const snapshot = usePositions(account);
  const fills = useFills(account);
  return (
    <li>
      <code>{account}</code>:{' '}
      {snapshot ? (
        <>
          {snapshot.positions.length} posiciones, etag <code>{snapshot.etag}</code>, {snapshot.source === 'seed' ? 'leída por REST' : 'actualizada'}{' '}
          {when(snapshot.as_of)}
        </>
      ) : (
        'sin valuación todavía'
      )}
      {' · '}
      {fills == null ? 'operaciones sin leer' : `${fills.length} operaciones`}
    </li>
  );
}

export function PositionsAdminPage() {
  const me = useCurrentUser();
  const sessions = useQuery(adminPositionsQueries.sessions());
  const { watches, watch, stop } = useAdminWatches();
  const list = sessions.data ?? [];
  const accounts = list.reduce((sum, session) => sum + session.accounts.length, 0);

  return (
    <AdminPage
      title="Posiciones"
      lead="Las sesiones de broker de todos los procesos, sus cuentas y los sockets suscriptos a cada una. Vigile una cuenta de una sesión suya para ver sus posiciones y operaciones en vivo."
    >
      <div className="pos-admin">
        <BrokerConnectForm
          onConnected={(session) => {
            // The paper broker's one account is watched at once: that is why it was connected.
            if (session.accounts.length === 1) watch(session.accounts[0]!, session.sessionId);
          }}
        />
        <section aria-labelledby="pos-admin-sessions">
          <div className="pos-admin-section-head">
            <h2 id="pos-admin-sessions">Sesiones de broker</h2>
            <span className="pos-admin-muted" role="status">
              {sessions.isSuccess ? `${plural(list.length, 'sesión', 'sesiones')} · ${plural(accounts, 'cuenta', 'cuentas')}` : ''}
            </span>
          </div>
          {sessions.isPending ? (
            <p className="pos-admin-muted">Cargando sesiones…</p>
          ) : sessions.isError && list.length === 0 ? (
            <p className="form-error" role="alert">
              {sessions.error.message}
            </p>
          ) : list.length === 0 ? (
            <AdminEmpty title="No hay sesiones de broker">
              Conecte una con el formulario de arriba; las que conecten los usuarios desde sus visores aparecen aquí.
            </AdminEmpty>
          ) : (
            <SessionsTable sessions={list} me={me.username} watches={watches} onWatch={watch} onStop={stop} />
          )}
        </section>
        <section aria-labelledby="pos-admin-watched">
          <h2 id="pos-admin-watched">Cuentas vigiladas</h2>
          {watches.length === 0 ? (
            <AdminEmpty title="No vigila ninguna cuenta">Elija Vigilar en una cuenta de una sesión suya.</AdminEmpty>
          ) : (
            watches.map((item) => <WatchedAccount key={item.account} watch={item} onStop={stop} />)
          )}
        </section>
        <WorkerState watches={watches} />
      </div>
    </AdminPage>
  );
}
