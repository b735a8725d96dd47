// The offline banner (issue 21): while the data worker cannot reach the server, "Sin conexión
// desde HH:MM" (in market time, as the stale quotes: offlineTexts.ts) and how many changes wait
// in the worker's outbox; while they are being sent after it comes back, that, or, while the
// server answers their replay with a failure (a 5xx), that they wait for it and are tried again
// by themselves. The worker's notices (an offline change refused or not applied) become toasts
// here. When the server answers again, the route's loaders run again: the session is checked (a
// 401 then signs out) and screens read what they need, without a reload.
import { useEffect, useRef } from 'react';
import { useRevalidator } from 'react-router-dom';
import { useConnection } from '../data/offline';
import { followConnection } from '../data/queries/client';
import { onWorkerNotice } from '../data/store';
import { showToast } from '../ui/toast';
import { OFFLINE_TEXTS } from './offlineTexts';

export function OfflineBanner() {
  const status = useConnection();
  const { revalidate } = useRevalidator();
  const wasOffline = useRef(false);

  useEffect(() => onWorkerNotice((text) => showToast(text, 'warning')), []);

  useEffect(() => {
    followConnection(status.online);
    if (!status.online) wasOffline.current = true;
    else if (wasOffline.current) {
      wasOffline.current = false;
      void revalidate();
    }
  }, [status.online, revalidate]);

  if (status.online) {
    if (status.pending === 0) return null;
    if (status.replayError != null) {
      return (
        <div className="offline-banner offline-banner--failing" role="status">
          {OFFLINE_TEXTS.serverFailing(status.pending, status.replayError)}
        </div>
      );
    }
    return (
      <div className="offline-banner offline-banner--sending" role="status">
        {OFFLINE_TEXTS.sending(status.pending)}
      </div>
    );
  }
  return (
    <div className="offline-banner" role="status" data-since={status.since ?? undefined}>
      <strong>{OFFLINE_TEXTS.since(status.since)}</strong>
      {status.pending > 0 && <span> · {OFFLINE_TEXTS.pending(status.pending)}</span>}
    </div>
  );
}
