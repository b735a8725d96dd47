// The visor's one line about the markets it shows (the `markets` event of the market socket):
// which feed is stopped, silent or reconnecting and since when, which market is closed and
// since which session, and that the prices are simulated. Times are the market's (Buenos
// Aires), as the stale quotes' «último HH:MM:SS».
import type { MarketsEvent, MarketStateEntry, MarketStateName } from '../protocol/market';
import { formatMarketTime } from './numberFormat';

const DAY_MS = 24 * 60 * 60 * 1000;
const MARKET_OFFSET_MS = 3 * 60 * 60 * 1000;
const WEEKDAYS = ['dom', 'lun', 'mar', 'mié', 'jue', 'vie', 'sáb'];

const marketDay = (epochMs: number) => Math.floor((epochMs - MARKET_OFFSET_MS) / DAY_MS);
const ddmm = (epochMs: number) => {
  const local = new Date(epochMs - MARKET_OFFSET_MS);
  return `${String(local.getUTCDate()).padStart(2, '0')}/${String(local.getUTCMonth() + 1).padStart(2, '0')}`;
};

/** `14:02` today, `26/11 14:02` another day. */
function sinceText(epochMs: number, now: number): string {
  const time = formatMarketTime(epochMs, false);
  return marketDay(epochMs) === marketDay(now) ? time : `${ddmm(epochMs)} ${time}`;
}

/** `11:00` today, `lun 30/11 10:00` another day. */
function opensText(epochMs: number, now: number): string {
  const time = formatMarketTime(epochMs, false);
  if (marketDay(epochMs) === marketDay(now)) return time;
  return `${WEEKDAYS[new Date(epochMs - MARKET_OFFSET_MS).getUTCDay()]} ${ddmm(epochMs)} ${time}`;
}

/** `2026-11-27` → `27/11`. */
const sessionDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/** `ROFEX`, `ROFEX y BYMA`, `ROFEX, BYMA y A3500`. */
export function joinLabels(labels: readonly string[]): string {
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} y ${labels.at(-1)}`;
}

/** Markets whose data is not live now, told one way each. */
const ISSUE_TEXTS: Partial<Record<MarketStateName, (labels: string, since: string) => string>> = {
  stopped: (labels, since) => `Datos de ${labels} detenidos desde ${since}`,
  silent: (labels, since) => `Datos de ${labels} sin actualizar desde ${since}`,
  reconnecting: (labels, since) => `${labels}: reconectando desde ${since}`,
};

/** Entries grouped by a key, in their order, each group with its entries' labels. */
function groups(entries: readonly MarketStateEntry[], keyOf: (entry: MarketStateEntry) => string): MarketStateEntry[][] {
  const byKey = new Map<string, MarketStateEntry[]>();
  for (const entry of entries) {
    const key = keyOf(entry);
    byKey.set(key, [...(byKey.get(key) ?? []), entry]);
  }
  return [...byKey.values()];
}

const labelsOf = (entries: readonly MarketStateEntry[]) => joinLabels(entries.map((entry) => entry.label));
const hours = (entry: MarketStateEntry) => `${formatMarketTime(entry.session.opensAt, false)}–${formatMarketTime(entry.session.closesAt, false)}`;

export interface MarketsLine {
  text: string;
  /** issue: some data is not live (stopped, silent, reconnecting); closed: markets closed; simulated: only the simulator's note. */
  tone: 'issue' | 'closed' | 'simulated';
}

/**
 * The line for the markets a visor shows (`shown`, entries of `event`); null when there is
 * nothing to say (every market shown runs on the exchange, or none is known yet).
 */
export function marketsLine(event: MarketsEvent, shown: readonly MarketStateEntry[], now: number): MarketsLine | null {
  if (shown.length === 0) return null;
  const parts: string[] = [];

  const issues = shown.filter((entry) => ISSUE_TEXTS[entry.state] != null);
  for (const group of groups(issues, (entry) => `${entry.state}|${entry.since == null ? '' : sinceText(entry.since, now)}`)) {
    const { state, since } = group[0]!;
    parts.push(ISSUE_TEXTS[state]!(labelsOf(group), since == null ? '—' : sinceText(since, now)));
  }

  const closed = shown.filter((entry) => entry.state === 'closed');
  const sameSession = groups(closed, (entry) => `${entry.session.day}|${entry.session.nextOpensAt}`);
  if (closed.length > 0 && closed.length === shown.length && groups(closed, (entry) => entry.session.day).length === 1) {
    // Every market shown is closed since the same session: said once.
    const opens = sameSession.length === 1 ? ` · abre ${opensText(closed[0]!.session.nextOpensAt, now)}` : '';
    parts.push(`Mercado cerrado · última rueda ${sessionDay(closed[0]!.session.day)}${opens}`);
  } else {
    for (const group of sameSession) {
      const { session } = group[0]!;
      parts.push(
        `${labelsOf(group)} ${group.length > 1 ? 'cerrados' : 'cerrado'} · última rueda ${sessionDay(session.day)} · abre ${opensText(session.nextOpensAt, now)}`,
      );
    }
  }

  const simulated = shown.filter((entry) => entry.simulated);
  if (simulated.length > 0) {
    const name = simulated.length === shown.length ? 'Mercado simulado' : `Simulado: ${labelsOf(simulated)}`;
    // In demo mode the simulator moves at any hour; the history keeps the sessions only.
    const outside = event.calendar === 'demo' ? simulated.filter((entry) => entry.state === 'running' && !entry.session.open) : [];
    parts.push(
      outside.length === 0
        ? name
        : `${name} · fuera del horario de ${joinLabels(outside.map((entry) => `${entry.label} (${hours(entry)})`))}: los precios se mueven, el historial guarda sólo las ruedas`,
    );
  }

  if (parts.length === 0) return null;
  return { text: parts.join(' · '), tone: issues.length > 0 ? 'issue' : closed.length > 0 ? 'closed' : 'simulated' };
}

/**
 * Of `entries`, the oldest last update of the markets not running: the time a stale chart
 * says its data is from. null when none is known.
 */
export function lastUpdateOf(entries: readonly MarketStateEntry[]): number | null {
  const times = entries
    .filter((entry) => entry.state !== 'running' && entry.lastUpdate != null)
    // A closed market's data is its session's: a feed that told its (unchanged) prices after
    // the close, as a process started at night does, did not make them newer.
    .map((entry) => (entry.state === 'closed' ? Math.min(entry.lastUpdate!, entry.session.closesAt) : entry.lastUpdate!));
  return times.length === 0 ? null : Math.min(...times);
}
