// The accounts the admin watches from the Posiciones page: each one held through the data
// worker (data/positions.ts: watch, seed from REST, subscribe; fills too) until the admin
// stops watching it or leaves the page. Only an account of a session the admin connected can
// be watched: the server answers 404 to anyone else (sessions belong to who connected them).
import { useCallback, useEffect, useRef, useState } from 'react';
import { watchBrokerAccount } from '../../data/positions';
import { useRefreshBrokerSessions } from '../../data/queries/adminPositions';

export interface AdminWatch {
  account: string;
  sessionId: string;
  state: 'starting' | 'watching' | 'error';
  problem: string | null;
}

const messageOf = (error: unknown) =>
  typeof error === 'object' && error != null && typeof (error as { message?: unknown }).message === 'string'
    ? (error as { message: string }).message
    : String(error);

export function useAdminWatches() {
  const [watches, setWatches] = useState<AdminWatch[]>([]);
  const releases = useRef(new Map<string, () => void>());
  /** Watches on their way; one stopped meanwhile is released as soon as it arrives. */
  const pending = useRef(new Map<string, object>());
  const refresh = useRefreshBrokerSessions();

  const set = (account: string, change: Partial<AdminWatch>) =>
    setWatches((current) => current.map((watch) => (watch.account === account ? { ...watch, ...change } : watch)));

  const watch = useCallback(
    (account: string, sessionId: string) => {
      releases.current.get(account)?.();
      releases.current.delete(account);
      setWatches((current) => [...current.filter((other) => other.account !== account), { account, sessionId, state: 'starting', problem: null }]);
      const attempt = {};
      pending.current.set(account, attempt);
      watchBrokerAccount(account, sessionId).then(
        (release) => {
          // Stopped (or left) while the watch was on its way.
          if (pending.current.get(account) !== attempt) return release();
          pending.current.delete(account);
          releases.current.set(account, release);
          set(account, { state: 'watching', problem: null });
          void refresh();
        },
        (error: unknown) => {
          if (pending.current.get(account) !== attempt) return;
          pending.current.delete(account);
          set(account, { state: 'error', problem: messageOf(error) });
        },
      );
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- set and refresh only write state and ask the list again
    [],
  );
  const stop = useCallback(
    (account: string) => {
      pending.current.delete(account);
      releases.current.get(account)?.();
      releases.current.delete(account);
      setWatches((current) => current.filter((watch) => watch.account !== account));
      void refresh();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh only asks the list again
    [],
  );

  // Leaving the page stops every watch it started.
  useEffect(() => {
    const held = releases.current;
    const waiting = pending.current;
    return () => {
      waiting.clear();
      for (const release of held.values()) release();
      held.clear();
    };
  }, []);

  return { watches, watch, stop };
}
