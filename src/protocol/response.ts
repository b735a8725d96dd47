// The envelopes every HTTP answer of the API uses. Response schemas are strict: a field the
// server sends and the protocol does not name (a leak, or a change nobody wrote down) fails
// the API tests that check answers against them.
import { z } from './zod';

/** Every 4xx/5xx answer: the message is the one the UI shows. */
export const ErrorResponse = z.strictObject({
  status: z.literal('error'),
  message: z.string(),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** A success that carries nothing (sign-out, password change). */
export const SuccessResponse = z.strictObject({ status: z.literal('success') });
export type SuccessResponse = z.infer<typeof SuccessResponse>;

/** The deletes (visor, user) answer `ok` where every other success says `success`. */
export const OkResponse = z.strictObject({ status: z.literal('ok') });
export type OkResponse = z.infer<typeof OkResponse>;

/** `{status:'success', data}`, the shape of most answers. */
export function successData<T extends z.ZodType>(data: T) {
  return z.strictObject({ status: z.literal('success'), data });
}
