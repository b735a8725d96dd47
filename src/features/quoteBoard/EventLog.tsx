// The data worker's event log (the last 200 entries, spec section 4), read on demand and
// every few seconds while open: a panel of the /test page (EventLog), and the entries alone
// (EventLogEntries) for other places that open it (the positions section's dialog).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { workerQueries } from '../../data/queries/eventLog';
import { formatMarketTime } from '../../lib/numberFormat';
import './eventLog.css';

/** The entries, newest first, read while mounted with `active` (at once, then every two seconds). */
export function EventLogEntries({ active = true }: { active?: boolean }) {
  const log = useQuery({ ...workerQueries.eventLog(), enabled: active });
  const entries = log.data ?? [];
  return (
    <>
      <div className="event-log__bar">
        <span>{entries.length} entradas (se guardan las últimas 200)</span>
        <button type="button" className="button" onClick={() => void log.refetch()}>
          Actualizar
        </button>
      </div>
      <ol className="event-log__list" aria-label="Eventos">
        {[...entries].reverse().map((entry, index) => (
          <li key={`${entry.time}-${entries.length - index}`} data-level={entry.level}>
            <time dateTime={new Date(entry.time).toISOString()}>{formatMarketTime(entry.time)}</time> {entry.text}
          </li>
        ))}
      </ol>
    </>
  );
}

export function EventLog() {
  const [open, setOpen] = useState(false);
  return (
    <details className="card event-log" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Registro de eventos</summary>
      <EventLogEntries active={open} />
    </details>
  );
}
