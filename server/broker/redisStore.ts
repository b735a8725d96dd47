// The broker store across processes (REDIS_URL). Each process keeps the broker sessions it
// connected (their credentials never leave it) and revalues their watched accounts; Redis
// holds what the others need:
//   {prefix}broker:session:{id}                session record (JSON), expires unless its owner renews it
//   {prefix}broker:account:{userId}:{account}  watched account: owner, latest snapshot, errors
//   {prefix}broker:fills:{userId}:{account}    its fills (JSON list), once watched
//   {prefix}broker:subs:{processId}            hash of socket subscribers per account in that process
// and these channels:
//   {prefix}broker:pos:{userId}:{account}      each new snapshot, subscribed only while a local socket wants it
//   {prefix}broker:cmd:{processId}             watch commands for the sessions a process owns
//   {prefix}broker:reply:{processId}           their replies, matched by a correlation id
//   {prefix}broker:forget                      a deleted user, to every process
// Records live RECORD_TTL_MS after their owner's last renewal, so a dead process's sessions
// vanish on their own; a command to a process nobody listens for (PUBLISH reaches no one)
// is known at once to have no owner.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { commandClientOptions } from '../redisOptions.js';
import type { Fill, PositionsSnapshot } from '../../src/protocol/broker.js';
import { INTERNAL_ERROR_MESSAGE } from '../errors.js';
import { parseJson } from '../json.js';
import { BROKER_MESSAGES } from './messages.js';
import type { AccountRecord, BrokerStore, CommandReply, SessionRecord, SnapshotListener, WatchCommand } from './store.js';

/** A record lapses this long after its owner last renewed it (a dead process). */
export const RECORD_TTL_MS = 6000;
/** How long a process waits for the owner of a session to answer a command. */
export const COMMAND_TIMEOUT_MS = 5000;

interface CommandMessage {
  id: string;
  replyTo: string;
  command: WatchCommand;
}

interface ReplyMessage {
  id: string;
  reply: CommandReply;
}

/** SCAN MATCH treats these as pattern characters; the prefix is taken literally. */
const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

export function createRedisBrokerStore(url: string, prefix: string, processId: string, onError: (error: Error) => void): BrokerStore {
  const client = new Redis(url, commandClientOptions);
  const subscriber = new Redis(url);
  client.on('error', onError);
  subscriber.on('error', onError);

  const base = `${prefix}broker:`;
  const accountPart = (userId: string, account: string) => `${userId}:${encodeURIComponent(account)}`;
  const keys = {
    session: (id: string) => `${base}session:${id}`,
    account: (userId: string, account: string) => `${base}account:${accountPart(userId, account)}`,
    fills: (userId: string, account: string) => `${base}fills:${accountPart(userId, account)}`,
    subs: (process: string) => `${base}subs:${process}`,
  };
  const channels = {
    positions: (userId: string, account: string) => `${base}pos:${accountPart(userId, account)}`,
    command: (process: string) => `${base}cmd:${process}`,
    reply: (process: string) => `${base}reply:${process}`,
    forget: `${base}forget`,
  };

  /** Records this process owns, written again on every renewal. */
  const ownedSessions = new Map<string, SessionRecord>();
  const ownedAccounts = new Map<string, AccountRecord>();
  /** Socket subscribers in this process, per account (field of the subs hash). */
  const localSubscribers = new Map<string, number>();
  const listeners = new Map<string, Set<SnapshotListener>>();
  /** Channels being (or already) subscribed in Redis. */
  const subscribing = new Map<string, Promise<unknown>>();
  const pendingReplies = new Map<string, (reply: CommandReply) => void>();
  let commandHandler: ((command: WatchCommand) => Promise<CommandReply>) | null = null;
  let forgetHandler: ((userId: string) => void) | null = null;

  async function runCommand(message: CommandMessage): Promise<void> {
    let reply: CommandReply;
    try {
      reply = commandHandler ? await commandHandler(message.command) : { ok: false, kind: 'unavailable', message: BROKER_MESSAGES.ownerTimeout };
    } catch (error) {
      onError(error as Error);
      reply = { ok: false, kind: 'internal', message: INTERNAL_ERROR_MESSAGE };
    }
    const answer: ReplyMessage = { id: message.id, reply };
    await client.publish(channels.reply(message.replyTo), JSON.stringify(answer));
  }

  subscriber.on('message', (channel: string, payload: string) => {
    if (channel === channels.command(processId)) {
      const message = parseJson<CommandMessage>(payload);
      if (message?.id && message.replyTo && message.command) runCommand(message).catch(onError);
      return;
    }
    if (channel === channels.reply(processId)) {
      const message = parseJson<ReplyMessage>(payload);
      const resolve = message?.id ? pendingReplies.get(message.id) : undefined;
      if (resolve && message) resolve(message.reply);
      return;
    }
    if (channel === channels.forget) {
      const message = parseJson<{ userId: string }>(payload);
      if (typeof message?.userId === 'string') forgetHandler?.(message.userId);
      return;
    }
    const set = listeners.get(channel);
    if (!set) return;
    const snapshot = parseJson<PositionsSnapshot>(payload);
    if (!snapshot) return;
    for (const listener of set) listener(snapshot);
  });

  const ready = subscriber.subscribe(channels.command(processId), channels.reply(processId), channels.forget);
  ready.catch(onError);

  async function writeSubscribers(field: string): Promise<void> {
    const count = localSubscribers.get(field) ?? 0;
    if (count > 0) await client.multi().hset(keys.subs(processId), field, count).pexpire(keys.subs(processId), RECORD_TTL_MS).exec();
    else await client.hdel(keys.subs(processId), field);
  }

  /** The owner renews its records three times per lifetime, so one slow round trip loses none. */
  async function renew(): Promise<void> {
    if (ownedSessions.size === 0 && ownedAccounts.size === 0 && localSubscribers.size === 0) return;
    const batch = client.multi();
    for (const record of ownedSessions.values()) batch.set(keys.session(record.id), JSON.stringify(record), 'PX', RECORD_TTL_MS);
    for (const record of ownedAccounts.values()) {
      batch.set(keys.account(record.userId, record.account), JSON.stringify(record), 'PX', RECORD_TTL_MS);
      batch.pexpire(keys.fills(record.userId, record.account), RECORD_TTL_MS);
    }
    if (localSubscribers.size > 0) batch.pexpire(keys.subs(processId), RECORD_TTL_MS);
    await batch.exec();
  }
  const renewTimer = setInterval(() => renew().catch(onError), Math.floor(RECORD_TTL_MS / 3));
  renewTimer.unref();

  async function scanKeys(pattern: string): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0');
    return found;
  }

  return {
    processId,

    async ready() {
      await ready;
    },

    async saveSession(record) {
      if (record.owner === processId) ownedSessions.set(record.id, record);
      await client.set(keys.session(record.id), JSON.stringify(record), 'PX', RECORD_TTL_MS);
    },
    session: async (id) => parseJson<SessionRecord>(await client.get(keys.session(id))),
    async sessions() {
      const found = await scanKeys(`${escapeGlob(base)}session:*`);
      if (found.length === 0) return [];
      const values = await client.mget(...found);
      return values.map((value) => parseJson<SessionRecord>(value)).filter((record): record is SessionRecord => record != null);
    },
    async deleteSession(id) {
      ownedSessions.delete(id);
      await client.del(keys.session(id));
    },

    async saveAccount(record) {
      const key = keys.account(record.userId, record.account);
      if (record.owner === processId) ownedAccounts.set(key, record);
      await client.set(key, JSON.stringify(record), 'PX', RECORD_TTL_MS);
    },
    account: async (userId, account) => parseJson<AccountRecord>(await client.get(keys.account(userId, account))),
    async deleteAccount(userId, account) {
      ownedAccounts.delete(keys.account(userId, account));
      await client.del(keys.account(userId, account), keys.fills(userId, account));
    },
    async saveFills(userId, account, fills) {
      await client.set(keys.fills(userId, account), JSON.stringify(fills), 'PX', RECORD_TTL_MS);
    },
    fills: async (userId, account) => parseJson<Fill[]>(await client.get(keys.fills(userId, account))),

    publish(userId, account, snapshot) {
      client.publish(channels.positions(userId, account), JSON.stringify(snapshot)).catch(onError);
    },

    async subscribe(userId, account, listener) {
      const channel = channels.positions(userId, account);
      const field = accountPart(userId, account);
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(listener);
      let subscribed = subscribing.get(channel);
      if (!subscribed) subscribing.set(channel, (subscribed = subscriber.subscribe(channel)));
      localSubscribers.set(field, (localSubscribers.get(field) ?? 0) + 1);
      const unsubscribe = async () => {
        const current = listeners.get(channel);
        if (!current?.delete(listener)) return;
        const left = (localSubscribers.get(field) ?? 1) - 1;
        if (left > 0) localSubscribers.set(field, left);
        else localSubscribers.delete(field);
        if (current.size === 0) {
          listeners.delete(channel);
          subscribing.delete(channel);
          await subscriber.unsubscribe(channel);
        }
        await writeSubscribers(field);
      };
      try {
        await subscribed;
        await writeSubscribers(field);
      } catch (error) {
        await unsubscribe().catch(onError);
        throw error;
      }
      return unsubscribe;
    },

    async subscribers(userId, account) {
      const field = accountPart(userId, account);
      const hashes = await scanKeys(`${escapeGlob(base)}subs:*`);
      let total = 0;
      for (const hash of hashes) total += Number(await client.hget(hash, field)) || 0;
      return total;
    },

    async send(owner, command) {
      const id = randomBytes(12).toString('hex');
      const message: CommandMessage = { id, replyTo: processId, command };
      const replied = new Promise<CommandReply>((resolve) => {
        const timer = setTimeout(() => {
          pendingReplies.delete(id);
          resolve({ ok: false, kind: 'unavailable', message: BROKER_MESSAGES.ownerTimeout });
        }, COMMAND_TIMEOUT_MS);
        pendingReplies.set(id, (reply) => {
          clearTimeout(timer);
          pendingReplies.delete(id);
          resolve(reply);
        });
      });
      let receivers: number;
      try {
        receivers = await client.publish(channels.command(owner), JSON.stringify(message));
      } catch (error) {
        pendingReplies.get(id)?.({ ok: false, kind: 'unavailable', message: BROKER_MESSAGES.storeUnavailable });
        onError(error as Error);
        return replied;
      }
      if (receivers === 0) {
        pendingReplies.get(id)?.({ ok: true });
        return null;
      }
      return replied;
    },
    onCommand(handler) {
      commandHandler = handler;
    },
    async broadcastForget(userId) {
      await client.publish(channels.forget, JSON.stringify({ userId }));
    },
    onForget(handler) {
      forgetHandler = handler;
    },

    async close() {
      clearInterval(renewTimer);
      // A graceful exit takes its sessions along, so other processes answer 404 at once.
      const gone = [
        ...[...ownedSessions.keys()].map(keys.session),
        ...[...ownedAccounts.values()].flatMap((record) => [keys.account(record.userId, record.account), keys.fills(record.userId, record.account)]),
        keys.subs(processId),
      ];
      ownedSessions.clear();
      ownedAccounts.clear();
      await client.del(...gone).catch(onError);
      for (const resolve of pendingReplies.values()) resolve({ ok: false, kind: 'unavailable', message: BROKER_MESSAGES.ownerTimeout });
      subscriber.disconnect();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
