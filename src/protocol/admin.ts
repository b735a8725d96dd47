// Profile and admin shapes (issue 3).
import { trimmedText, z } from './zod';
import { NewUser, PublicUser, Role } from './auth';
import { OkResponse, SuccessResponse, successData } from './response';

const Name = (label: string) => trimmedText().max(200, `${label} no puede superar 200 caracteres`);
const Password = NewUser.shape.password;

export const UpdateProfileRequest = z.strictObject({
  firstName: Name('El nombre'),
  lastName: Name('El apellido'),
});

export const ChangePasswordRequest = z.strictObject({
  current: z.string().min(1, 'Ingrese su contraseña actual').max(1024),
  next: Password,
});

export const AdminUser = PublicUser.extend({
  disabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** ISO date-time of the latest sign-in (from the operator log); null when never. */
  last_login_at: z.string().nullable(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const CreateUserRequest = NewUser.strict();

export const UpdateUserRequest = z
  .strictObject({
    firstName: Name('El nombre').optional(),
    lastName: Name('El apellido').optional(),
    role: Role.optional(),
    /** A new password (reset): the user's open sessions end. */
    password: Password.optional(),
    /** Disabled users cannot sign in; their open sessions end. */
    disabled: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Indique al menos un cambio');

export const LogQuery = z.strictObject({
  /** A user id or a username. */
  user: trimmedText().max(200).optional(),
  action: trimmedText().max(50).optional(),
  /** ISO date (a Buenos Aires day, from its 00:00) or date-time (no offset: Buenos Aires time), inclusive. */
  from: trimmedText().max(40).optional(),
  /** ISO date or date-time as `from`; a bare date includes that whole Buenos Aires day. */
  to: trimmedText().max(40).optional(),
  cursor: trimmedText().max(200).optional(),
  limit: z.coerce.number().int().min(1, 'limit debe ser al menos 1').max(200, 'limit no puede superar 200').default(50),
});

export const OperatorLogItem = z.strictObject({
  id: z.string(),
  /** ISO date-time. */
  at: z.string(),
  user_id: z.string().nullable(),
  username: z.string().nullable(),
  action: z.string(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type OperatorLogItem = z.infer<typeof OperatorLogItem>;

// ------------------------------------------------------------------------ answers

/** GET and PUT /profile: the signed-in user. */
export const ProfileResponse = successData(PublicUser);
export type ProfileResponse = z.infer<typeof ProfileResponse>;

/** PUT /profile/password. */
export const ChangePasswordResponse = SuccessResponse;
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponse>;

/** GET /admin/users. */
export const AdminUsersResponse = successData(z.array(AdminUser));
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

/** POST /admin/users (201) and PUT /admin/users/{id}: the user as it is now. */
export const AdminUserResponse = successData(AdminUser);
export type AdminUserResponse = z.infer<typeof AdminUserResponse>;

/** DELETE /admin/users/{id}. */
export const DeleteUserResponse = OkResponse;
export type DeleteUserResponse = z.infer<typeof DeleteUserResponse>;

/** GET /admin/logs: newest first; `next_cursor` asks for the next page, null on the last. */
export const AdminLogsResponse = z.strictObject({
  status: z.literal('success'),
  data: z.array(OperatorLogItem),
  next_cursor: z.string().nullable(),
});
export type AdminLogsResponse = z.infer<typeof AdminLogsResponse>;

// ------------------------------------------------------------------------ admin status (issue 20)

/** A user with a live session, as GET /admin/sessions lists them. */
export const SignedInUser = z.strictObject({
  id: z.string(),
  username: z.string(),
  role: Role,
  /** Live sessions (signed-in browsers or devices). */
  sessions: z.number(),
  /** Epoch ms a session of theirs was last used (to the minute). */
  lastUsedAt: z.number(),
  /** Epoch ms their oldest live session signed in. */
  signedInAt: z.number(),
});
export type SignedInUser = z.infer<typeof SignedInUser>;

/** GET /admin/sessions: the signed-in users, latest used first. */
export const SignedInUsersResponse = successData(z.array(SignedInUser));
export type SignedInUsersResponse = z.infer<typeof SignedInUsersResponse>;

/** GET /admin/logs/export: the same filters as the log, without paging; answers CSV. */
export const LogExportQuery = LogQuery.omit({ cursor: true, limit: true });
