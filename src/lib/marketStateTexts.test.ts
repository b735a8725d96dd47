import { describe, expect, it } from 'vitest';
import type { MarketsEvent, MarketStateEntry } from '../protocol/market';
import { joinLabels, lastUpdateOf, marketsLine } from './marketStateTexts';

const HOUR = 3600_000;
/** Epoch ms of a Buenos Aires (UTC−3) time on a day of November 2026. */
const ba = (date: number, hours: number, minutes = 0) => Date.UTC(2026, 10, date, hours + 3, minutes);
// Friday 27/11/2026, 14:30.
const NOW = ba(27, 14, 30);

const session = (date: number, open: number, close: number, nextDate: number, isOpen: boolean) => ({
  day: `2026-11-${date}`,
  open: isOpen,
  opensAt: ba(date, open),
  closesAt: ba(date, close),
  nextOpensAt: ba(nextDate, open),
});

const rofex = (fields: Partial<MarketStateEntry> = {}): MarketStateEntry => ({
  market: 'rofex',
  label: 'ROFEX',
  feed: 'rofex',
  simulated: false,
  state: 'running',
  since: ba(27, 10),
  lastUpdate: NOW - 1000,
  session: session(27, 10, 17, 30, true),
  ...fields,
});
const byma = (fields: Partial<MarketStateEntry> = {}): MarketStateEntry => ({
  ...rofex(),
  market: 'byma',
  label: 'BYMA',
  feed: 'tv',
  session: session(27, 11, 17, 30, true),
  ...fields,
});
const a3500 = (fields: Partial<MarketStateEntry> = {}): MarketStateEntry => ({
  ...rofex(),
  market: 'a3500',
  label: 'A3500',
  session: session(27, 10, 15, 30, true),
  ...fields,
});

const event = (markets: MarketStateEntry[], calendar: 'demo' | 'real' = 'real'): MarketsEvent => ({
  event: 'markets',
  simulated: markets.every((entry) => entry.simulated),
  calendar,
  markets,
});
const line = (shown: MarketStateEntry[], calendar: 'demo' | 'real' = 'real', now = NOW) => marketsLine(event(shown, calendar), shown, now);

describe('marketsLine', () => {
  it('says nothing while every market shown runs on the exchange, or none is shown', () => {
    expect(line([rofex(), byma()])).toBeNull();
    expect(line([])).toBeNull();
  });

  it('names a stopped, a silent and a reconnecting feed, each since when, markets of one state and time together', () => {
    const since = ba(27, 14, 2);
    expect(line([rofex({ state: 'stopped', since }), byma()])).toEqual({ text: 'Datos de ROFEX detenidos desde 14:02', tone: 'issue' });
    expect(line([rofex({ state: 'stopped', since }), a3500({ state: 'stopped', since })])?.text).toBe('Datos de ROFEX y A3500 detenidos desde 14:02');
    expect(line([byma({ state: 'silent', since })])?.text).toBe('Datos de BYMA sin actualizar desde 14:02');
    expect(line([rofex({ state: 'reconnecting', since }), byma({ state: 'silent', since: ba(26, 16, 59) })])?.text).toBe(
      'ROFEX: reconectando desde 14:02 · Datos de BYMA sin actualizar desde 26/11 16:59',
    );
  });

  it('says once that the market is closed when every market shown is, since the same session', () => {
    const saturday = ba(28, 12);
    const closed = (entry: MarketStateEntry) => ({
      ...entry,
      state: 'closed' as const,
      since: entry.session.closesAt,
      session: { ...entry.session, open: false },
    });
    expect(line([closed(rofex())], 'real', saturday)).toEqual({ text: 'Mercado cerrado · última rueda 27/11 · abre lun 30/11 10:00', tone: 'closed' });
    // Opening at different hours: not said.
    expect(line([closed(rofex()), closed(byma())], 'real', saturday)?.text).toBe('Mercado cerrado · última rueda 27/11');
  });

  it('names each closed market, with its last session and its opening, when not all of them are closed', () => {
    // 16:00 on a trading day: the A3500 closed at 15:00, the others trade.
    const at = ba(27, 16);
    expect(line([rofex(), a3500({ state: 'closed', since: ba(27, 15), session: { ...session(27, 10, 15, 30, false) } })], 'real', at)?.text).toBe(
      'A3500 cerrado · última rueda 27/11 · abre lun 30/11 10:00',
    );
    // Before the opening: the last session was yesterday's, and it opens today.
    const morning = ba(27, 10, 30);
    const bymaBefore = byma({ state: 'closed', since: ba(26, 17), session: { ...session(26, 11, 17, 27, false) } });
    expect(line([rofex(), bymaBefore], 'real', morning)?.text).toBe('BYMA cerrado · última rueda 26/11 · abre 11:00');
  });

  it('says the market is simulated, and outside its hours in demo mode that prices move while history keeps the sessions', () => {
    expect(line([rofex({ simulated: true }), byma({ simulated: true })], 'demo')).toEqual({ text: 'Mercado simulado', tone: 'simulated' });
    const evening = ba(27, 16);
    expect(line([rofex({ simulated: true }), a3500({ simulated: true, session: session(27, 10, 15, 30, false) })], 'demo', evening)?.text).toBe(
      'Mercado simulado · fuera del horario de A3500 (10:00–15:00): los precios se mueven, el historial guarda sólo las ruedas',
    );
    const night = ba(27, 22);
    const after = (entry: MarketStateEntry) => ({ ...entry, simulated: true, session: { ...entry.session, open: false } });
    expect(line([after(rofex()), after(byma())], 'demo', night)?.text).toBe(
      'Mercado simulado · fuera del horario de ROFEX (10:00–17:00) y BYMA (11:00–17:00): los precios se mueven, el historial guarda sólo las ruedas',
    );
    // With the exchange on ROFEX, only BYMA is simulated.
    expect(line([rofex(), byma({ simulated: true })])?.text).toBe('Simulado: BYMA');
    // A stopped simulated feed: the problem first.
    expect(line([rofex({ simulated: true, state: 'stopped', since: ba(27, 14, 2) }), byma({ simulated: true })], 'demo')).toEqual({
      text: 'Datos de ROFEX detenidos desde 14:02 · Mercado simulado',
      tone: 'issue',
    });
  });
});

describe('joinLabels', () => {
  it('joins one, two and three names as Spanish does', () => {
    expect(joinLabels(['ROFEX'])).toBe('ROFEX');
    expect(joinLabels(['ROFEX', 'BYMA'])).toBe('ROFEX y BYMA');
    expect(joinLabels(['ROFEX', 'BYMA', 'A3500'])).toBe('ROFEX, BYMA y A3500');
  });
});

describe('lastUpdateOf', () => {
  it('is the oldest last update of the markets not running', () => {
    expect(lastUpdateOf([rofex(), byma()])).toBeNull();
    expect(lastUpdateOf([rofex({ state: 'stopped', lastUpdate: NOW - HOUR }), byma({ state: 'silent', lastUpdate: NOW - 2 * HOUR }), a3500()])).toBe(
      NOW - 2 * HOUR,
    );
  });

  it("is a closed market's session close when its feed told the same prices later (a process started at night)", () => {
    const closedFriday = session(27, 10, 17, 30, false);
    const saturday = ba(28, 11, 36);
    expect(lastUpdateOf([rofex({ state: 'closed', lastUpdate: saturday, session: closedFriday })])).toBe(ba(27, 17));
    expect(lastUpdateOf([rofex({ state: 'closed', lastUpdate: ba(27, 16, 59), session: closedFriday })])).toBe(ba(27, 16, 59));
  });
});
