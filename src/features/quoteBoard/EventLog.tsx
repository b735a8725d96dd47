// The data worker's event log (the last 200 entries, spec section 4), read on demand and
// every few seconds while open.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { workerQueries } from '../../data/queries/eventLog';

const time = new Intl.DateTimeFormat('es-AR', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

export function EventLog() {
  const [open, setOpen] = useState(false);
  // Read while open: at once, then every two seconds (workerQueries.eventLog).
  const log = useQuery({ ...workerQueries.eventLog(), enabled: open });
  const entries = log.data ?? [];

  return (
    <details className="card event-log" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Registro de eventos</summary>
      <div className="event-log__bar">
        <span>{entries.length} entradas (se guardan las últimas 200)</span>
        <button type="button" className="button" onClick={() => void log.refetch()}>
          Actualizar
        </button>
      </div>
      <ol className="event-log__list" aria-label="Eventos">
        {[...entries].reverse().map((entry, index) => (
          <li key={`${entry.time}-${entries.length - index}`} data-level={entry.level}>
            <time dateTime={new Date(entry.time).toISOString()}>{time.format(entry.time)}</time> {entry.text}
          </li>
        ))}
      </ol>
    </details>
  );
}
