// The signed-in user's profile: GET /profile, and the two changes of the Perfil page.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ChangePasswordResponse, ProfileResponse, type ChangePasswordRequest, type UpdateProfileRequest } from '../../protocol/admin';
import type { z } from '../../protocol/zod';
import { apiRequest } from '../api';
import { getToken } from '../session';
import { profileKeys } from './keys';

export const profileQueries = {
  detail: () =>
    queryOptions({
      queryKey: profileKeys.detail(),
      queryFn: async ({ signal }) => (await apiRequest('/profile', { token: getToken(), signal, schema: ProfileResponse })).data,
    }),
};

export type ProfileNames = z.input<typeof UpdateProfileRequest>;

/**
 * PUT /profile. The answer is the updated record, which replaces the cached profile (an
 * invalidation would only ask again for what the server just said).
 */
export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (names: ProfileNames) => (await apiRequest('/profile', { method: 'PUT', token: getToken(), body: names, schema: ProfileResponse })).data,
    onSuccess: (user) => queryClient.setQueryData(profileQueries.detail().queryKey, user),
  });
}

export type PasswordChange = z.input<typeof ChangePasswordRequest>;

/**
 * PUT /profile/password. The profile has no field a password change alters, so nothing is
 * invalidated (the server ends the user's other sessions; this one stays).
 */
export function useChangePasswordMutation() {
  return useMutation({
    mutationFn: (change: PasswordChange) => apiRequest('/profile/password', { method: 'PUT', token: getToken(), body: change, schema: ChangePasswordResponse }),
  });
}
