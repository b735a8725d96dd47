// The data worker's event log (the last 200 entries, spec section 4), read through the
// worker's Comlink API and polled while someone looks at it.
import { queryOptions } from '@tanstack/react-query';
import type { LogEntry } from '../../workers/api';
import { dataWorker } from '../worker';
import { workerKeys } from './keys';

/** How often a log on screen is read again. */
const REFRESH_MS = 2000;

export const workerQueries = {
  /**
   * Read again every REFRESH_MS while enabled (the component enables it while the log is
   * open), and at once when opened: it is always stale. A failed read keeps the entries
   * shown and is logged.
   */
  eventLog: () =>
    queryOptions({
      queryKey: workerKeys.eventLog(),
      queryFn: (): Promise<LogEntry[]> =>
        dataWorker()
          .getEventLog()
          .catch((error: unknown) => {
            console.warn('Event log unreadable', error);
            throw error;
          }),
      staleTime: 0,
      refetchInterval: REFRESH_MS,
    }),
};
