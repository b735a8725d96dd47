// The admin's view of broker sessions (Posiciones page): the sessions of every process with
// their accounts and the sockets subscribed to each (GET /admin/positions), read again every
// few seconds while the page is on screen (TanStack Query pauses the interval in a hidden
// tab), and the connection of a new session through the worker (data/positions.ts: the
// password goes with that one request and is kept nowhere).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminPositionsResponse } from '../../protocol/broker';
import { apiRequest } from '../api';
import { connectBroker, type BrokerLogin } from '../positions';
import { getToken } from '../session';
import { adminPositionsKeys } from './keys';

/** How often the sessions list is read again while shown. */
export const ADMIN_POSITIONS_REFRESH_MS = 3000;

export const adminPositionsQueries = {
  sessions: () =>
    queryOptions({
      queryKey: adminPositionsKeys.sessions(),
      queryFn: async ({ signal }) => (await apiRequest('/admin/positions', { token: getToken(), signal, schema: AdminPositionsResponse })).data,
      refetchInterval: ADMIN_POSITIONS_REFRESH_MS,
    }),
};

/** Reads the sessions list again now (after a watch or a release changed its subscribers). */
export function useRefreshBrokerSessions() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminPositionsKeys.all });
}

/**
 * Connects a broker session for the signed-in admin (`sim://` or a Primary API URL); rejects
 * with the server's message (401 credentials refused, 502 broker not reached, 400 address
 * not allowed). The list shows the new session at once.
 */
export function useConnectBrokerMutation() {
  const refresh = useRefreshBrokerSessions();
  return useMutation({
    mutationFn: (login: BrokerLogin) => connectBroker(login),
    onSettled: refresh,
  });
}
