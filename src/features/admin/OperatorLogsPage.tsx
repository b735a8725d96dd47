// The operator log (issue 20): filters by user, action and dates (kept in the address, so a
// filtered view can be shared or reloaded), newest first, one page after another as the list
// scrolls (cursor paging on the server's index), a row's details on click, and the CSV export
// of everything the filters match (the server streams it). The table is a window-scrolled
// virtual list: however many pages are loaded, only the rows in view are in the page.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useNeedsServerReason } from '../../data/offline';
import { marketIsoString } from '../../lib/marketTime';
import { adminLogsQueries, useExportLogsMutation } from '../../data/queries/adminLogs';
import type { LogFilters } from '../../data/queries/keys';
import type { OperatorLogItem } from '../../protocol/admin';
import { Dialog } from '../../ui/Dialog';
import { showToast } from '../../ui/toast';
import { AdminEmpty, AdminPage } from './AdminPage';
import { StatusError } from './FeedStatus';
import { LOG_ACTIONS, actionLabel } from './logActions';
import { formatDateTime } from './statusFormat';
import './adminStatus.css';

const FIELDS = ['user', 'action', 'from', 'to'] as const;
/** A row's height in px, for the virtual list (the rows are one line each). */
const ROW_HEIGHT = 45;
/** The next page is asked for when the rows in view come this close to the last loaded one. */
const LOAD_AHEAD_ROWS = 20;

function filtersOf(params: URLSearchParams): LogFilters {
  return { user: params.get('user') ?? '', action: params.get('action') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' };
}

function LogDetails({ row, onClose }: { row: OperatorLogItem | null; onClose: () => void }) {
  return (
    <Dialog open={row != null} onClose={onClose} title="Detalle de la acción" className="dialog--log">
      {row && (
        <>
          <dl className="log-details">
            <div>
              <dt>Fecha</dt>
              <dd>
                {formatDateTime(row.at)} <span className="muted status-mono">({marketIsoString(Date.parse(row.at))})</span>
              </dd>
            </div>
            <div>
              <dt>Usuario</dt>
              <dd>
                {row.username ?? '—'} {row.user_id && <span className="muted status-mono">({row.user_id})</span>}
              </dd>
            </div>
            <div>
              <dt>Acción</dt>
              <dd>
                {actionLabel(row.action)} <span className="muted status-mono">({row.action})</span>
              </dd>
            </div>
            <div>
              <dt>IP</dt>
              <dd className="status-mono">{row.ip ?? '—'}</dd>
            </div>
            <div>
              <dt>Id</dt>
              <dd className="status-mono">{row.id}</dd>
            </div>
          </dl>
          <h3 className="log-details__title">Datos</h3>
          {row.detail ? <pre className="log-details__json">{JSON.stringify(row.detail, null, 2)}</pre> : <p className="muted">Sin datos adicionales.</p>}
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={onClose} autoFocus>
              Cerrar
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

export function OperatorLogsPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const [draft, setDraft] = useState<LogFilters>(filters);
  const [selected, setSelected] = useState<OperatorLogItem | null>(null);
  const logs = useInfiniteQuery(adminLogsQueries.list(filters));
  const exportCsv = useExportLogsMutation();
  // The CSV is the server's: off while it cannot be reached, saying why (issue 21).
  const offline = useNeedsServerReason();
  // Where the rows start in the page, for the window's virtual list.
  const [scrollMargin, setScrollMargin] = useState(0);
  const measureBody = useCallback((body: HTMLTableSectionElement | null) => {
    if (body) setScrollMargin(body.getBoundingClientRect().top + window.scrollY);
  }, []);
  const ids = { user: useId(), action: useId(), from: useId(), to: useId() };
  const rows = logs.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = FIELDS.some((field) => filters[field] !== '');
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = logs;

  // Only the rows in view (and a few around) are in the page, however many pages are loaded:
  // the table stays light after scrolling through thousands of rows.
  // The virtualizer keeps its state outside React and re-renders this component itself.
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    scrollMargin,
    getItemKey: (index) => rows[index]!.id,
  });
  const items = virtualizer.getVirtualItems();
  const lastInView = items.at(-1)?.index ?? -1;
  const padTop = items[0] ? items[0].start - virtualizer.options.scrollMargin : 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - (items.at(-1)!.end - virtualizer.options.scrollMargin) : 0;

  // The next page as the end of the loaded rows comes into view.
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastInView >= rows.length - LOAD_AHEAD_ROWS) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastInView, rows.length]);

  const apply = (next: LogFilters) => {
    const search = new URLSearchParams();
    for (const field of FIELDS) if (next[field].trim() !== '') search.set(field, next[field].trim());
    setParams(search);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      showToast('La fecha "desde" es posterior a la fecha "hasta".', 'error');
      return;
    }
    apply(draft);
  };
  const clear = () => {
    const empty = { user: '', action: '', from: '', to: '' };
    setDraft(empty);
    apply(empty);
  };
  const download = () =>
    exportCsv.mutate(filters, {
      onSuccess: (name) => showToast(`Descargado ${name}`, 'success'),
      onError: (error) => showToast(error.message, 'error'),
    });

  const actions = (
    <button type="button" className="button" onClick={download} disabled={exportCsv.isPending || offline != null} title={offline ?? undefined}>
      {exportCsv.isPending ? 'Exportando…' : 'Exportar CSV'}
    </button>
  );

  return (
    <AdminPage
      title="Logs de operadores"
      trail={[{ label: 'Data centers' }]}
      lead="Quién hizo qué y cuándo, lo más reciente primero. El CSV incluye todo lo que coincide con los filtros."
      actions={actions}
    >
      <form className="card log-filters" onSubmit={submit} aria-label="Filtros del log">
        <div className="log-filters__field">
          <label htmlFor={ids.user}>Usuario</label>
          <input
            id={ids.user}
            type="search"
            placeholder="Usuario o id"
            value={draft.user}
            onChange={(event) => setDraft({ ...draft, user: event.target.value })}
          />
        </div>
        <div className="log-filters__field">
          <label htmlFor={ids.action}>Acción</label>
          <select id={ids.action} className="select" value={draft.action} onChange={(event) => setDraft({ ...draft, action: event.target.value })}>
            <option value="">Todas</option>
            {Object.entries(LOG_ACTIONS).map(([action, label]) => (
              <option key={action} value={action}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="log-filters__field">
          <label htmlFor={ids.from}>Desde</label>
          <input id={ids.from} type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </div>
        <div className="log-filters__field">
          <label htmlFor={ids.to}>Hasta</label>
          <input id={ids.to} type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </div>
        <div className="log-filters__buttons">
          <button type="submit" className="button button--primary">
            Filtrar
          </button>
          <button type="button" className="button button--secondary" onClick={clear} disabled={!filtered && FIELDS.every((field) => draft[field] === '')}>
            Limpiar
          </button>
        </div>
        <p className="muted status-small log-filters__note">Fechas y horas de Buenos Aires (UTC−3); &quot;hasta&quot; incluye el día entero.</p>
      </form>

      <section className="card status-section" aria-labelledby="logs-title">
        <div className="status-section__head">
          <h2 id="logs-title">Acciones</h2>
          <span className="muted" role="status">
            {logs.data ? `${rows.length}${hasNextPage ? '+' : ''} ${rows.length === 1 ? 'fila' : 'filas'}` : ''}
          </span>
        </div>
        <StatusError error={logs.error} what="el log" />
        {logs.isPending && <p className="muted">Cargando…</p>}
        {logs.data && rows.length === 0 && (
          <AdminEmpty title={filtered ? 'Ninguna acción coincide con los filtros' : 'El log está vacío'}>
            {filtered ? 'Pruebe con otros filtros o límpielos.' : 'Las acciones de los usuarios aparecerán aquí.'}
          </AdminEmpty>
        )}
        {rows.length > 0 && (
          <div className="status-table-wrap">
            <table className="status-table log-table">
              <thead>
                <tr>
                  <th scope="col">Fecha</th>
                  <th scope="col">Usuario</th>
                  <th scope="col">Acción</th>
                  <th scope="col">IP</th>
                  <th scope="col">
                    <span className="status-sr">Detalle</span>
                  </th>
                </tr>
              </thead>
              <tbody ref={measureBody}>
                {padTop > 0 && (
                  <tr aria-hidden="true" className="log-pad">
                    <td colSpan={5} style={{ height: padTop }} />
                  </tr>
                )}
                {items
                  .map(({ index }) => [index, rows[index]!] as const)
                  .map(([index, row]) => (
                    <tr
                      key={row.id}
                      ref={virtualizer.measureElement}
                      data-index={index}
                      data-log-id={row.id}
                      data-action={row.action}
                      onClick={() => setSelected(row)}
                    >
                      <td>{formatDateTime(row.at)}</td>
                      <td>{row.username ?? '—'}</td>
                      <td>{actionLabel(row.action)}</td>
                      <td className="status-mono">{row.ip ?? '—'}</td>
                      <td>
                        <button type="button" className="button button--small" onClick={(event) => (event.stopPropagation(), setSelected(row))}>
                          Ver<span className="status-sr"> el detalle de {actionLabel(row.action)}</span>
                        </button>
                      </td>
                    </tr>
                  ))}
                {padBottom > 0 && (
                  <tr aria-hidden="true" className="log-pad">
                    <td colSpan={5} style={{ height: padBottom }} />
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
        {hasNextPage && (
          <button type="button" className="button button--secondary log-more" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Cargando…' : 'Cargar más'}
          </button>
        )}
      </section>
      <LogDetails row={selected} onClose={() => setSelected(null)} />
    </AdminPage>
  );
}
