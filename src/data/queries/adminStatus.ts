// The admin's status (issue 20): the feeds and processes, a feed's wanted symbols, the market
// sockets and who is signed in (the broker sessions: adminPositions.ts), each polled every few seconds while the
// tab is visible (TanStack Query pauses the interval of a hidden tab); and the feeds' start,
// stop and rate, which invalidate every status key so the change shows at once here and, by
// the polling, on every other admin's screen within seconds.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { SignedInUsersResponse } from '../../protocol/admin';
import { FeedResponse, FeedSymbolsResponse, FeedsResponse, MarketSocketsResponse, type FeedName } from '../../protocol/market';
import { apiRequest } from '../api';
import { getToken } from '../session';
import { adminStatusKeys } from './keys';

/** How often the status pages ask again while their tab is visible. */
export const STATUS_REFRESH_MS = 3000;

const live = { refetchInterval: STATUS_REFRESH_MS, refetchIntervalInBackground: false } as const;

export const adminStatusQueries = {
  feeds: () =>
    queryOptions({
      queryKey: adminStatusKeys.feeds(),
      queryFn: async ({ signal }) => apiRequest('/admin/feeds', { token: getToken(), signal, schema: FeedsResponse }),
      ...live,
    }),
  feedSymbols: (name: FeedName) =>
    queryOptions({
      queryKey: adminStatusKeys.feedSymbols(name),
      queryFn: async ({ signal }) =>
        (await apiRequest(`/admin/feeds/${encodeURIComponent(name)}/symbols`, { token: getToken(), signal, schema: FeedSymbolsResponse })).data,
      ...live,
    }),
  marketSockets: () =>
    queryOptions({
      queryKey: adminStatusKeys.marketSockets(),
      queryFn: async ({ signal }) => (await apiRequest('/admin/market/sockets', { token: getToken(), signal, schema: MarketSocketsResponse })).data,
      ...live,
    }),
  signedIn: () =>
    queryOptions({
      queryKey: adminStatusKeys.signedIn(),
      queryFn: async ({ signal }) => (await apiRequest('/admin/sessions', { token: getToken(), signal, schema: SignedInUsersResponse })).data,
      ...live,
    }),
};

export type FeedChange = { name: FeedName; action: 'start' | 'stop' } | { name: FeedName; rate: number };

/** Starts, stops or paces a feed (POST /admin/feeds/{name}/start|stop, PUT /admin/feeds/{name}). */
export function useFeedChangeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: FeedChange) => {
      const path = `/admin/feeds/${encodeURIComponent(change.name)}`;
      const answer =
        'action' in change
          ? await apiRequest(`${path}/${change.action}`, { method: 'POST', token: getToken(), schema: FeedResponse })
          : await apiRequest(path, { method: 'PUT', token: getToken(), body: { rate: change.rate }, schema: FeedResponse });
      return answer.data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminStatusKeys.all }),
  });
}
