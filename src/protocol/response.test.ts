// Answer schemas with a rule of their own: strictness that survives extend and pick, the
// market frame keyed by symbol beside its requestId, the positions frame keyed by channel,
// and control events told apart from data frames.
import { describe, expect, it } from 'vitest';
import { AdminUser, AdminUserResponse } from './admin';
import { ErrorResponse, LoginResponse } from './auth';
import { POSITIONS_CHANNEL_PREFIX, PositionsPushMessage, type PositionsSnapshot } from './broker';
import { MarketDataMessage } from './market';
import { AuthenticatedEvent, ControlEvent, UnsubscribedEvent } from './socket';

const user = { _id: 'u1', username: 'demo', firstName: 'Demo', lastName: 'Usuario', role: 'user' };

describe('strict answers', () => {
  it('refuse a field nobody wrote down, at any depth', () => {
    expect(ErrorResponse.safeParse({ status: 'error', message: 'x', stack: 'at …' }).success).toBe(false);
    expect(LoginResponse.safeParse({ status: 'success', token: 't', user }).success).toBe(true);
    expect(LoginResponse.safeParse({ status: 'success', token: 't', user: { ...user, password_hash: 'h' } }).success).toBe(false);
  });

  it('stay strict where a schema extends or picks another', () => {
    const admin = { ...user, disabled: false, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', last_login_at: null };
    expect(AdminUserResponse.safeParse({ status: 'success', data: admin }).success).toBe(true);
    expect(AdminUser.safeParse({ ...admin, password_hash: 'h' }).success).toBe(false);
    const { firstName: _first, lastName: _last, ...socketUser } = user;
    expect(AuthenticatedEvent.safeParse({ event: 'authenticated', user: socketUser }).success).toBe(true);
    expect(AuthenticatedEvent.safeParse({ event: 'authenticated', user }).success).toBe(false);
  });
});

describe('socket frames', () => {
  const md = { BI: [{ price: 1, size: 2 }], LA: { price: 1, size: 1, date: 0 }, OP: null };

  it('a market frame is symbols with their state, and maybe the requestId of the subscribe it answers', () => {
    const frame = { 'DLR/DIC26': { md, expiration: '20261231' }, 'BYMA:AL30': { md: {} }, requestId: 'r1' };
    expect(MarketDataMessage.parse(frame)).toEqual(frame);
    expect(MarketDataMessage.parse({ 'DLR/DIC26': { md } })).toEqual({ 'DLR/DIC26': { md } });
    expect(MarketDataMessage.safeParse({ 'DLR/DIC26': { md: { XX: 1 } } }).success).toBe(false);
    expect(MarketDataMessage.safeParse({ requestId: 5 }).success).toBe(false);
  });

  it('a control event is not a market frame, and a market frame is not a control event', () => {
    const pong = { event: 'pong', time: 1, requestId: 'p' };
    expect(ControlEvent.parse(pong)).toEqual(pong);
    expect(MarketDataMessage.safeParse(pong).success).toBe(false);
    expect(ControlEvent.safeParse({ 'DLR/DIC26': { md } }).success).toBe(false);
  });

  it('unsubscribed names one symbol or a batch', () => {
    expect(UnsubscribedEvent.safeParse({ event: 'unsubscribed', symbol: 'A' }).success).toBe(true);
    expect(UnsubscribedEvent.safeParse({ event: 'unsubscribed', symbols: ['A', 'B'], requestId: 'r' }).success).toBe(true);
    expect(UnsubscribedEvent.safeParse({ event: 'unsubscribed' }).success).toBe(false);
  });

  it('a positions frame is keyed by its channel, with or without the snapshot', () => {
    const snapshot: PositionsSnapshot = { account: 'A', broker: 'primary', as_of: '2026-01-01T00:00:00.000Z', etag: 'e', positions: [] };
    const channel = `${POSITIONS_CHANNEL_PREFIX}A`;
    const full = { [channel]: { type: 'positions', data: snapshot, etag: 'e', as_of: snapshot.as_of } };
    const bare = { [channel]: { type: 'positions', etag: 'e', as_of: snapshot.as_of } };
    expect(PositionsPushMessage.parse(full)).toEqual(full);
    expect(PositionsPushMessage.parse(bare)).toEqual(bare);
    expect(PositionsPushMessage.safeParse({ 'POS:other:A': bare[channel] }).success).toBe(false);
  });
});
