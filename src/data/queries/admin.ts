// Admin server state for the Usuarios page: the accounts (GET /admin/users) and their
// create, change and delete. Every write invalidates the list, so the table shows what the
// server keeps (a refused change leaves it as it was).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminUserResponse, AdminUsersResponse, DeleteUserResponse, type CreateUserRequest, type UpdateUserRequest } from '../../protocol/admin';
import type { z } from '../../protocol/zod';
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

export type NewUserFields = z.input<typeof CreateUserRequest>;
export type UserChanges = z.input<typeof UpdateUserRequest>;

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminKeys.users() });
}

/** POST /admin/users: 409 when the username exists, 400 on a bad field (the message says which). */
export function useCreateUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async (fields: NewUserFields) =>
      (await apiRequest('/admin/users', { method: 'POST', token: getToken(), body: fields, schema: AdminUserResponse })).data,
    onSettled: invalidate,
  });
}

/**
 * PUT /admin/users/{id}. A new password or disabling ends the user's open sessions (the
 * server does it); the last active admin cannot be demoted or disabled (409, its message).
 */
export function useUpdateUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: UserChanges }) =>
      (await apiRequest(`/admin/users/${encodeURIComponent(id)}`, { method: 'PUT', token: getToken(), body: changes, schema: AdminUserResponse })).data,
    onSettled: invalidate,
  });
}

/** DELETE /admin/users/{id}: the user's visores and sessions go too; the last active admin stays (409). */
export function useDeleteUserMutation() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`/admin/users/${encodeURIComponent(id)}`, { method: 'DELETE', token: getToken(), schema: DeleteUserResponse }),
    onSettled: invalidate,
  });
}
