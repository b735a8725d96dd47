// /ws/positions (spec section 7): after auth, {action:'subscribe'|'unsubscribe',
// symbol:'POS:primary:{account}'} for an account the user watches; answers
// {event:'subscribed', symbol}, then pushes {"POS:primary:{account}": {type:'positions',
// data?, etag, as_of}} on every change, without `data` when it is too large to push. When the
// account stops being watched (with Redis: the process that had its session died), an error
// event with the symbol says so; the subscription stays, and pushes come again once the
// client has watched the account through a new session.
import type { FastifyInstance } from 'fastify';
import { z } from '../../src/protocol/zod.js';
import { POSITIONS_CHANNEL_PREFIX, type PositionsPush, type PositionsSnapshot } from '../../src/protocol/broker.js';
import type { AppContext } from '../context.js';
import { BROKER_MESSAGES } from '../broker/messages.js';
import { registerSocketEndpoint, type SocketSession } from './endpoint.js';

/** Snapshots larger than this (as JSON) are announced without data. */
export const MAX_PUSHED_SNAPSHOT_BYTES = 32 * 1024;

type Unsubscribe = () => Promise<void>;
/** A subscription made, refused (null: the account is not watched), or failed (the store). */
type Outcome = Unsubscribe | null | 'failed';

const ChannelMessage = z.object({
  action: z.enum(['subscribe', 'unsubscribe']),
  symbol: z
    .string()
    .max(200, 'El canal no puede superar 200 caracteres')
    .refine(
      (symbol) => symbol.startsWith(POSITIONS_CHANNEL_PREFIX) && symbol.length > POSITIONS_CHANNEL_PREFIX.length,
      `El canal debe ser ${POSITIONS_CHANNEL_PREFIX}{cuenta}`,
    ),
});

export function pushOf(snapshot: PositionsSnapshot): PositionsPush {
  const small = Buffer.byteLength(JSON.stringify(snapshot)) <= MAX_PUSHED_SNAPSHOT_BYTES;
  return small
    ? { type: 'positions', data: snapshot, etag: snapshot.etag, as_of: snapshot.as_of }
    : { type: 'positions', etag: snapshot.etag, as_of: snapshot.as_of };
}

export function registerPositionsSocket(app: FastifyInstance, ctx: AppContext): void {
  /** Per socket and channel: the subscription, pending until the broker confirms it. */
  const subscriptions = new WeakMap<SocketSession, Map<string, Promise<Outcome>>>();
  const closed = new WeakSet<SocketSession>();
  const stop = async (outcome: Outcome) => {
    if (typeof outcome === 'function') await outcome().catch((error: unknown) => app.log.warn({ err: error }, 'positions unsubscribe failed'));
  };

  registerSocketEndpoint(app, ctx, '/ws/positions', {
    async onMessage(session, message) {
      if (message.action !== 'subscribe' && message.action !== 'unsubscribe') return false;
      const parsed = ChannelMessage.safeParse(message);
      if (!parsed.success) {
        session.send({ event: 'error', message: parsed.error.issues[0]?.message ?? 'Mensaje inválido' });
        return true;
      }
      const { action, symbol } = parsed.data;
      const account = symbol.slice(POSITIONS_CHANNEL_PREFIX.length);
      let mine = subscriptions.get(session);
      if (!mine) subscriptions.set(session, (mine = new Map()));
      if (action === 'unsubscribe') {
        const pending = mine.get(symbol);
        mine.delete(symbol);
        if (pending) await stop(await pending);
        session.send({ event: 'unsubscribed', symbol });
        return true;
      }
      let pending = mine.get(symbol);
      if (!pending) {
        // Pushes may come from another process (REDIS_URL): the broker resolves once they flow.
        pending = ctx.broker
          .subscribe(
            session.user,
            account,
            (snapshot) => session.send({ [symbol]: pushOf(snapshot) }),
            // The session's process died: the client must connect a new one; the subscription stays for it.
            () => session.send({ event: 'error', message: BROKER_MESSAGES.sessionGone(account), symbol }),
          )
          .catch((error: unknown) => {
            app.log.warn({ err: error }, 'positions subscribe failed');
            return 'failed' as const;
          });
        mine.set(symbol, pending);
        const unsubscribe = await pending;
        if (typeof unsubscribe !== 'function') {
          mine.delete(symbol);
          session.send({
            event: 'error',
            message: unsubscribe === 'failed' ? BROKER_MESSAGES.subscribeFailed(account) : BROKER_MESSAGES.notWatched(account),
            symbol,
          });
          return true;
        }
        // The socket closed while the subscription was being made: undo it.
        if (closed.has(session)) {
          await stop(unsubscribe);
          return true;
        }
      } else if (typeof (await pending) !== 'function') {
        return true; // the first subscribe of this channel already answered the error
      }
      session.send({ event: 'subscribed', symbol });
      return true;
    },
    onClose(session) {
      closed.add(session);
      for (const pending of subscriptions.get(session)?.values() ?? []) void pending.then(stop);
      subscriptions.delete(session);
    },
  });
}
