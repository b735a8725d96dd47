// A data center (issue 20): one feed's state (since when, which process, simulator or the
// real exchange), start and stop (stop asks first), its rate, live ticks per second, the
// symbols its sockets want, and the market sockets of every process with a filter. Polled
// every few seconds, so what another admin changes shows here within seconds.
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { adminStatusQueries, useFeedChangeMutation } from '../../data/queries/adminStatus';
import type { FeedName } from '../../protocol/market';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { showToast } from '../../ui/toast';
import { AdminEmpty, AdminPage } from './AdminPage';
import { FeedStateBadge, StatusError } from './FeedStatus';
import { Sparkline } from './Sparkline';
import { FEED_LABELS, formatDateTime, formatDuration, formatRate, shortProcess } from './statusFormat';
import './adminStatus.css';
import { useNeedsServerReason } from '../../data/offline';

const SOURCE_TEXT = {
  simulator: 'Simulador de mercado (datos generados por el servidor)',
  primary: 'Mercado real a través de la Primary API',
} as const;

function RateForm({ name, rate, disabled }: { name: FeedName; rate: number; disabled: boolean }) {
  const offline = useNeedsServerReason();
  const inputId = useId();
  const hintId = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const change = useFeedChangeMutation();
  const value = draft ?? String(rate);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = Number(value);
    if (!Number.isInteger(next) || next < 0 || next > 100_000) {
      showToast('Indique un número entero de 0 a 100000 ticks por segundo.', 'error');
      return;
    }
    change.mutate(
      { name, rate: next },
      {
        onSuccess: (feed) => {
          setDraft(null);
          showToast(`${FEED_LABELS[name]}: ${feed.rate} ticks por segundo.`, 'success');
        },
        onError: (error) => showToast(error.message, 'error'),
      },
    );
  };
  return (
    <form className="rate-form" onSubmit={submit}>
      <label htmlFor={inputId}>Ritmo (ticks por segundo)</label>
      <div className="rate-form__row">
        <input
          id={inputId}
          type="number"
          min={0}
          max={100000}
          step={1}
          inputMode="numeric"
          value={value}
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={disabled || change.isPending || draft == null || offline != null}
          title={offline ?? undefined}
        >
          Aplicar
        </button>
      </div>
      <p id={hintId} className="muted rate-form__hint">
        {disabled ? 'El mercado real marca su propio ritmo.' : `Configurado: ${rate}. Se aplica en el proceso que corre el feed.`}
      </p>
    </form>
  );
}

export function DataCenterPage({ name }: { name: FeedName }) {
  // Starting, stopping and the rate ask the server (issue 21: off, saying why, while it cannot be reached).
  const offline = useNeedsServerReason();
  const label = FEED_LABELS[name];
  const feeds = useQuery(adminStatusQueries.feeds());
  const symbols = useQuery(adminStatusQueries.feedSymbols(name));
  const sockets = useQuery(adminStatusQueries.marketSockets());
  const change = useFeedChangeMutation();
  const [confirming, setConfirming] = useState(false);
  const [filter, setFilter] = useState('');
  const filterId = useId();
  const feed = feeds.data?.data.find((row) => row.name === name);
  // Durations as of the last answer (it comes every few seconds).
  const now = feeds.dataUpdatedAt;

  const shownSockets = useMemo(() => {
    const text = filter.trim().toLowerCase();
    const all = sockets.data ?? [];
    if (!text) return all;
    return all.filter(
      (socket) =>
        socket.user.username.toLowerCase().includes(text) ||
        socket.process.toLowerCase().includes(text) ||
        socket.symbols.some((symbol) => symbol.toLowerCase().includes(text)),
    );
  }, [sockets.data, filter]);

  const run = (action: 'start' | 'stop') =>
    change.mutate(
      { name, action },
      {
        onSuccess: (result) => showToast(`Data center ${label}: ${result.state === 'running' ? 'en marcha' : 'detenido'}`, 'success'),
        onError: (error) => showToast(error.message, 'error'),
      },
    );

  const actions = feed && (
    <>
      {feed.state === 'running' ? (
        <button
          type="button"
          className="button button--danger"
          onClick={() => setConfirming(true)}
          disabled={change.isPending || offline != null}
          title={offline ?? undefined}
        >
          Detener feed
        </button>
      ) : (
        <button
          type="button"
          className="button button--primary"
          onClick={() => run('start')}
          disabled={change.isPending || offline != null}
          title={offline ?? undefined}
        >
          Iniciar feed
        </button>
      )}
    </>
  );

  return (
    <AdminPage
      title={`Data center ${label}`}
      trail={[{ label: 'Data centers' }]}
      lead={feed ? SOURCE_TEXT[feed.source] : 'El feed, su ritmo y quién lo mira.'}
      actions={actions}
    >
      <StatusError error={feeds.error} what="el estado del feed" />
      {feeds.isPending && <p className="muted">Cargando…</p>}
      {feed && (
        <div className="status-grid">
          <article className={`card status-card${feed.state !== 'running' ? ' status-card--problem' : ''}`} aria-labelledby="dc-state" data-feed={name}>
            <header className="status-card__head">
              <h2 id="dc-state">Estado</h2>
              <FeedStateBadge feed={feed} />
            </header>
            <dl className="status-figures status-figures--rows">
              <div>
                <dt>Desde</dt>
                <dd>
                  {formatDateTime(feed.since)} <span className="muted">(hace {formatDuration(now - feed.since)})</span>
                </dd>
              </div>
              <div>
                <dt>Proceso</dt>
                <dd className="status-mono" title={feed.process ?? undefined}>
                  {feed.process ? shortProcess(feed.process) : <span className="status-problem-text">ningún proceso lo corre</span>}
                </dd>
              </div>
              <div>
                <dt>Fuente</dt>
                <dd data-field="source">{feed.source === 'primary' ? 'Primary API (mercado real)' : 'Simulador'}</dd>
              </div>
              <div>
                <dt>Instrumentos</dt>
                <dd>{feed.instruments}</dd>
              </div>
            </dl>
            {feed.lastError && <p className="status-problem-text">Último error: {feed.lastError}</p>}
          </article>

          <article className="card status-card" aria-labelledby="dc-rate">
            <header className="status-card__head">
              <h2 id="dc-rate">Ticks por segundo</h2>
            </header>
            <dl className="status-figures">
              <div>
                <dt>Ahora (5 s)</dt>
                <dd data-field="tps">{formatRate(feed.recentTicksPerSecond)}</dd>
              </div>
              <div>
                <dt>Último minuto</dt>
                <dd>{formatRate(feed.ticksPerSecond)}</dd>
              </div>
            </dl>
            <Sparkline samples={feed.samples} label={`Ticks por segundo de ${label} en los últimos 10 minutos`} width={260} height={48} />
            <p className="muted status-small">Últimos 10 minutos, cada punto 10 segundos.</p>
            <RateForm key={feed.rate} name={name} rate={feed.rate} disabled={feed.source === 'primary'} />
          </article>
        </div>
      )}

      <section className="card status-section" aria-labelledby="dc-symbols">
        <h2 id="dc-symbols">Símbolos suscriptos</h2>
        <StatusError error={symbols.error} what="los símbolos" />
        {symbols.data && symbols.data.length === 0 && (
          <AdminEmpty title="Ningún símbolo suscripto">Cuando un usuario abra un visor con instrumentos de {label}, aparecerán aquí.</AdminEmpty>
        )}
        {symbols.data && symbols.data.length > 0 && (
          <div className="status-table-wrap">
            <table className="status-table">
              <thead>
                <tr>
                  <th scope="col">Símbolo</th>
                  <th scope="col" className="num">
                    Sockets
                  </th>
                </tr>
              </thead>
              <tbody>
                {symbols.data.map((row) => (
                  <tr key={row.symbol}>
                    <td className="status-mono">{row.symbol}</td>
                    <td className="num">{row.sockets}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="card status-section" aria-labelledby="dc-sockets">
        <div className="status-section__head">
          <h2 id="dc-sockets">Sockets de mercado</h2>
          <div className="status-filter">
            <label htmlFor={filterId}>Filtrar</label>
            <input id={filterId} type="search" placeholder="Usuario, proceso o símbolo" value={filter} onChange={(event) => setFilter(event.target.value)} />
          </div>
        </div>
        <p className="muted status-small">Los sockets abiertos de todos los procesos (un navegador abre uno para todas sus pestañas).</p>
        <StatusError error={sockets.error} what="los sockets" />
        {sockets.data && shownSockets.length === 0 && (
          <AdminEmpty title={sockets.data.length === 0 ? 'No hay sockets de mercado abiertos' : 'Ningún socket coincide con el filtro'}>
            {sockets.data.length === 0 ? 'Se abren cuando un usuario entra a la aplicación.' : 'Pruebe con otro texto.'}
          </AdminEmpty>
        )}
        {shownSockets.length > 0 && (
          <div className="status-table-wrap">
            <table className="status-table">
              <thead>
                <tr>
                  <th scope="col">Usuario</th>
                  <th scope="col">Proceso</th>
                  <th scope="col">Abierto</th>
                  <th scope="col" className="num">
                    Símbolos
                  </th>
                </tr>
              </thead>
              <tbody>
                {shownSockets.map((socket) => (
                  <tr key={`${socket.process}-${socket.user.id}-${socket.openedAt}`}>
                    <td>{socket.user.username}</td>
                    <td className="status-mono" title={socket.process}>
                      {shortProcess(socket.process)}
                    </td>
                    <td>{formatDateTime(socket.openedAt)}</td>
                    <td className="num" title={socket.symbols.join(', ')}>
                      {socket.symbols.length}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <ConfirmDialog
        open={confirming}
        text={`El data center ${label} dejará de enviar precios a todos los usuarios hasta que lo vuelva a iniciar.`}
        confirmLabel="Sí, detener"
        disabledReason={offline}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          run('stop');
        }}
      />
    </AdminPage>
  );
}
