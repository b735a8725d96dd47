// How the admin's status pages write times, durations and rates (Spanish, Buenos Aires time).
import { marketIsoDate } from '../../lib/marketTime';
import { formatMarketDateTime, formatMarketTime } from '../../lib/numberFormat';
import type { FeedName } from '../../protocol/market';

/** The data centers' names as the operators say them. */
export const FEED_LABELS: Record<FeedName, string> = { tv: 'TV', rofex: 'ROFEX' };

/** `3 d 4 h`, `2 h 5 min`, `4 min 10 s`, `12 s`: the two largest units. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${rest} s`;
  return `${rest} s`;
}

/** Date and time in Buenos Aires, e.g. `26/11/2026 10:04:05`, of epoch ms or an ISO string. */
export function formatDateTime(at: number | string): string {
  return formatMarketDateTime(typeof at === 'string' ? Date.parse(at) : at, true);
}

/** The time alone when it is today (the market's day), else date and time. */
export function formatWhen(at: number, now: number): string {
  return marketIsoDate(at) === marketIsoDate(now) ? formatMarketTime(at) : formatDateTime(at);
}

const rateFormat = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 1 });

/** Ticks per second, one decimal at most (`1.234,5`). */
export function formatRate(value: number): string {
  return rateFormat.format(value);
}

/** A process id is `host:pid:random`: the host and pid read well, the random part tells restarts apart. */
export function shortProcess(id: string | null): string {
  if (id == null) return 'ninguno';
  const [host, pid] = id.split(':');
  return pid ? `${host}:${pid}` : id;
}
