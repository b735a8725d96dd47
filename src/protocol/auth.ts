// Wire shapes of sign-in and sessions, shared by the server (validation) and the client (types).
import { safeText, trimmedText, z } from './zod';
import { SuccessResponse } from './response';

/** Every error answer; defined with the other envelopes in response.ts. */
export { ErrorResponse } from './response';

export const ROLES = ['user', 'admin'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** The user as every API response carries it (spec section 3). */
export const PublicUser = z.strictObject({
  _id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: Role,
});
export type PublicUser = z.infer<typeof PublicUser>;

export const USERNAME_PATTERN = /^[a-zA-Z0-9._-]+$/;

export const Username = trimmedText().min(1, 'El usuario no puede estar vacío').max(64, 'El usuario no puede superar 64 caracteres');

export const LoginRequest = z.object({
  username: Username,
  password: z.string().min(1, 'La contraseña no puede estar vacía').max(1024, 'La contraseña no puede superar 1024 caracteres'),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /login. */
export const LoginResponse = z.strictObject({
  status: z.literal('success'),
  token: z.string(),
  user: PublicUser,
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const CheckTokenRequest = z.object({
  token: safeText().min(1, 'El token no puede estar vacío').max(512, 'El token es demasiado largo'),
});

/** POST /checkToken. */
export const CheckTokenResponse = z.strictObject({
  status: z.literal('success'),
  user: PublicUser,
});
export type CheckTokenResponse = z.infer<typeof CheckTokenResponse>;

export const LogoutRequest = z.object({
  /** Free text the client sends with the sign-out; it goes to the operator log. */
  log: safeText().max(2000, 'El texto de cierre de sesión no puede superar 2000 caracteres').optional(),
});

/** POST /logout. */
export const LogoutResponse = SuccessResponse;
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/** New account, from the admin CLI now and the admin API later. */
export const NewUser = z.object({
  username: Username.regex(USERNAME_PATTERN, 'El usuario solo admite letras, dígitos, punto, guion y guion bajo'),
  password: z.string().min(8, 'La contraseña debe tener al menos 8 caracteres').max(1024, 'La contraseña no puede superar 1024 caracteres'),
  firstName: trimmedText().max(200, 'El nombre no puede superar 200 caracteres').default(''),
  lastName: trimmedText().max(200, 'El apellido no puede superar 200 caracteres').default(''),
  role: Role.default('user'),
});
export type NewUser = z.input<typeof NewUser>;
