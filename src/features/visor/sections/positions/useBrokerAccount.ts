// The broker session and account of a positions section (issue 19), for its owner only.
//
// A session this browser connected before (data/positions.ts remembers the server's answer,
// never the password) is used at once; so after a reload, or in another tab, the section
// goes on by itself while the server keeps the session. The paper broker needs no password:
// without a session it connects one by itself. A Primary API broker asks for the password
// (the login form) when there is no session, or when the server no longer keeps it
// (404 'La sesión de broker no existe', e.g. after a server restart). Then the account is
// watched through the worker (positions and fills) until the section goes.
import { useCallback, useEffect, useState } from 'react';
import {
  BROKER_SESSION_GONE,
  brokerKey,
  connectBroker,
  forgetBrokerSession,
  isPaperBroker,
  rememberedBrokerSession,
  watchBrokerAccount,
  type BrokerSession,
} from '../../../../data/positions';
import { useOnline } from '../../../../data/offline';
import type { PositionsSettings } from './positionsConfig';
import { SESSION_ENDED } from './positionsMessages';

export interface BrokerAccountState {
  /** The session in use, or null (connecting, or a password is needed). */
  session: BrokerSession | null;
  connecting: boolean;
  /** What went wrong, as the section says it. */
  problem: string | null;
  /** The account is watched: positions and fills arrive in the store. */
  watching: boolean;
  /** Connects the section's broker with a password (Primary); the paper broker needs none. */
  connect(password: string): Promise<void>;
  /** Tries again after a problem. */
  retry(): void;
}

interface State {
  key: string;
  session: BrokerSession | null;
  connecting: boolean;
  problem: string | null;
  watching: boolean;
  /** Bumped by retry(): the effects run again. */
  attempt: number;
  /** The paper broker reconnected once after its session was gone: not again in a loop. */
  reconnected: boolean;
}

const messageOf = (error: unknown) =>
  typeof error === 'object' && error != null && typeof (error as { message?: unknown }).message === 'string'
    ? (error as { message: string }).message
    : String(error);

const sessionGone = (error: unknown) => messageOf(error) === BROKER_SESSION_GONE;

/** The broker the state is for; 'off' while the section is not its owner's (nothing is asked then). */
const keyOf = (settings: PositionsSettings, enabled: boolean) => (enabled ? brokerKey(settings.brokerUrl, settings.username) : 'off');

function initial(settings: PositionsSettings, enabled: boolean): State {
  const key = keyOf(settings, enabled);
  const session = enabled ? rememberedBrokerSession(settings.brokerUrl, settings.username) : null;
  return { key, session, connecting: false, problem: null, watching: false, attempt: 0, reconnected: false };
}

export function useBrokerAccount(settings: PositionsSettings, enabled: boolean): BrokerAccountState {
  const { account, brokerUrl, username } = settings;
  const key = keyOf(settings, enabled);
  const [state, setState] = useState(() => initial(settings, enabled));
  // Another broker (the settings changed it): its own remembered session, from the start.
  if (state.key !== key) setState(initial(settings, enabled));
  // Back online (issue 21): a section stopped by a problem (the connection's, offline) starts again by itself.
  const online = useOnline();
  const [wasOnline, setWasOnline] = useState(online);
  if (online !== wasOnline) {
    setWasOnline(online);
    if (online && state.problem != null) setState((current) => ({ ...initial(settings, enabled), attempt: current.attempt + 1 }));
  }
  const paper = isPaperBroker(brokerUrl);
  const sessionId = state.session?.sessionId ?? null;
  const hasAccount = state.session != null && account !== '' && state.session.accounts.includes(account);

  const connect = useCallback(
    async (password: string) => {
      setState((current) => (current.key === key ? { ...current, connecting: true, problem: null } : current));
      try {
        // The section's account goes along: a broker that does not list accounts is checked with it.
        const session = await connectBroker({ url: brokerUrl, username, password, account });
        setState((current) => (current.key === key ? { ...current, session, connecting: false, problem: null } : current));
      } catch (error) {
        setState((current) => (current.key === key ? { ...current, connecting: false, problem: messageOf(error) } : current));
      }
    },
    [brokerUrl, username, account, key],
  );

  // The paper broker connects by itself (no password); once more if its session was gone.
  const autoConnect = enabled && paper && state.session == null && !state.connecting && state.problem == null;
  useEffect(() => {
    if (autoConnect) void connect('');
  }, [autoConnect, connect, state.attempt]);

  useEffect(() => {
    if (!enabled || sessionId == null || !hasAccount) return;
    let live = true;
    let release: (() => void) | null = null;
    watchBrokerAccount(account, sessionId).then(
      (done) => {
        if (!live) return done();
        release = done;
        setState((current) => (current.key === key ? { ...current, watching: true, problem: null } : current));
      },
      (error: unknown) => {
        if (!live) return;
        if (sessionGone(error)) {
          forgetBrokerSession(sessionId);
          setState((current) => {
            if (current.key !== key) return current;
            // The paper broker connects a new session once; a Primary one needs the password again.
            const again = paper && !current.reconnected;
            return {
              ...current,
              session: null,
              watching: false,
              reconnected: current.reconnected || again,
              problem: again ? null : paper ? messageOf(error) : SESSION_ENDED,
            };
          });
          return;
        }
        setState((current) => (current.key === key ? { ...current, watching: false, problem: messageOf(error) } : current));
      },
    );
    return () => {
      live = false;
      release?.();
      setState((current) => (current.watching ? { ...current, watching: false } : current));
    };
  }, [enabled, sessionId, hasAccount, account, key, paper, state.attempt]);

  // From the start, with the session remembered now (the settings may have connected one).
  const retry = useCallback(() => setState((current) => ({ ...initial(settings, enabled), attempt: current.attempt + 1 })), [settings, enabled]);

  return { session: state.session, connecting: state.connecting, problem: state.problem, watching: state.watching, connect, retry };
}
