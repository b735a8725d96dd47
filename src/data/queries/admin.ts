// Admin server state, for the Usuarios page to come: the accounts list (GET /admin/users).
import { queryOptions } from '@tanstack/react-query';
import { AdminUsersResponse } from '../../protocol/admin';
import { apiRequest } from '../api';
import { getToken } from '../session';
import { adminKeys } from './keys';

export const adminQueries = {
  users: () =>
    queryOptions({
      queryKey: adminKeys.users(),
      queryFn: async ({ signal }) => (await apiRequest('/admin/users', { token: getToken(), signal, schema: AdminUsersResponse })).data,
    }),
};
