// A positions section's config as the section reads it (issue 19): the protocol stores
// `{account, brokerUrl?, username?}`; a config stored as `{account}` (before the broker was
// part of it) is an account of the paper broker. Anything unreadable reads as no account
// on the paper broker, so the section asks for one instead of failing.
import { PAPER_BROKER_URL } from '../../../../protocol/broker';
import type { ConfigOf } from '../types';

export type PositionsConfig = ConfigOf<'positions'>;

export interface PositionsSettings {
  /** '' until one is chosen. */
  account: string;
  brokerUrl: string;
  /** '' for the paper broker. */
  username: string;
}

const textOr = (value: unknown, fallback: string) => (typeof value === 'string' ? value.trim() : fallback);

export function readPositionsConfig(config: unknown): PositionsSettings {
  const raw = config !== null && typeof config === 'object' ? (config as Record<string, unknown>) : {};
  const brokerUrl = textOr(raw.brokerUrl, '') || PAPER_BROKER_URL;
  return {
    account: textOr(raw.account, ''),
    brokerUrl,
    username: brokerUrl === PAPER_BROKER_URL ? '' : textOr(raw.username, ''),
  };
}

/** The config to store for these settings: the paper broker's username is left out. */
export function positionsConfigOf(settings: PositionsSettings): PositionsConfig {
  const brokerUrl = settings.brokerUrl.trim() || PAPER_BROKER_URL;
  return brokerUrl === PAPER_BROKER_URL
    ? { account: settings.account.trim(), brokerUrl }
    : { account: settings.account.trim(), brokerUrl, username: settings.username.trim() };
}

/** A new positions section: the paper broker, its account chosen once connected. */
export const defaultPositionsConfig = (): PositionsConfig => ({ account: '', brokerUrl: PAPER_BROKER_URL });
