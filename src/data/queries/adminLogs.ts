// The operator log (issue 20): its pages for a set of filters, newest first, one cursor after
// another (GET /admin/logs), and the CSV export of everything the filters match, which the
// server streams (GET /admin/logs/export) and the tab saves under the server's file name.
import { infiniteQueryOptions, useMutation } from '@tanstack/react-query';
import { AdminLogsResponse } from '../../protocol/admin';
import { ApiError, errorOfAnswer, NETWORK_ERROR_MESSAGE } from '../../shared/errors';
import { settings } from '../../shared/settings';
import { apiRequest } from '../api';
import { getToken } from '../session';
import { adminLogsKeys, type LogFilters } from './keys';

/** Rows per page of the log. */
export const LOG_PAGE_SIZE = 50;

/** The filters as a query string: empty ones left out; the days are sent as typed (the server reads a bare date as that Buenos Aires day). */
export function logQueryString(filters: LogFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) if (value.trim() !== '') params.set(name, value.trim());
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const adminLogsQueries = {
  list: (filters: LogFilters, limit = LOG_PAGE_SIZE) =>
    infiniteQueryOptions({
      queryKey: adminLogsKeys.list(filters, limit),
      queryFn: async ({ signal, pageParam }) =>
        apiRequest(`/admin/logs${logQueryString(filters, { limit: String(limit), cursor: pageParam ?? '' })}`, {
          token: getToken(),
          signal,
          schema: AdminLogsResponse,
        }),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor,
    }),
};

/** The file name of a Content-Disposition answer, or a fallback. */
function fileNameOf(disposition: string | null): string {
  const match = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return match?.[1] ?? 'logs-operadores.csv';
}

/**
 * Downloads the CSV of everything the filters match. The request needs the session's token
 * in a header, so the tab fetches it and hands the file to the browser's download.
 */
export function useExportLogsMutation() {
  return useMutation({
    mutationFn: async (filters: LogFilters) => {
      let response: Response;
      try {
        response = await fetch(`${settings.apiBase}/admin/logs/export${logQueryString(filters)}`, { headers: { authorization: `Bearer ${getToken() ?? ''}` } });
      } catch {
        throw new ApiError({ code: 'network', message: NETWORK_ERROR_MESSAGE, status: 0 });
      }
      if (!response.ok) throw new ApiError(errorOfAnswer(response.status, await response.json().catch(() => null)));
      const name = fileNameOf(response.headers.get('content-disposition'));
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return name;
    },
  });
}
