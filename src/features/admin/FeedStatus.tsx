// Bits both the admin home and the data-center pages show of a feed: its state as a badge.
import type { FeedAdminStatus } from '../../protocol/market';

export function FeedStateBadge({ feed }: { feed: Pick<FeedAdminStatus, 'state' | 'process'> }) {
  const running = feed.state === 'running';
  return (
    <span className={`status-badge status-badge--${running ? 'ok' : 'problem'}`} data-state={feed.state}>
      <span className="status-badge__dot" aria-hidden="true" />
      {running ? 'En marcha' : 'Detenido'}
    </span>
  );
}

/** The error banner of a status query that failed (the last good answer stays on screen). */
export function StatusError({ error, what }: { error: Error | null; what: string }) {
  if (!error) return null;
  return (
    <p className="status-alert" role="alert">
      No se pudo leer {what}: {error.message}
    </p>
  );
}
