// A symbol's detail on the search page: what it is (kind, description, expiry, contract size,
// tick, currency), its live price against the previous close, a small chart of its recent daily
// closes, and «Agregar a un visor». The instrument's facts come from the search answer (the
// results', or a search of the symbol itself when the link named one they lack); the live
// values from the data worker, as a quote board's rows get them.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { marketQueries } from '../../data/queries/market';
import { useMarketStatus, useQuoteState } from '../../data/store';
import { holdSymbol } from '../../data/worker';
import { sameSymbol } from '../../lib/boardAdd';
import { calendarDaysBetween, parseYyyymmdd } from '../../lib/calendar';
import { instrumentKindLabel } from '../../lib/instrumentKinds';
import { formatExact, formatExchangeDate, formatMarketDateTime } from '../../lib/numberFormat';
import { cellText, changeDirection } from '../../lib/quoteColumns';
import { displaySymbol } from '../../lib/symbolNames';
import type { SearchHit } from '../../protocol/market';
import type { OwnVisorRecord } from '../../shared/db';
import { Icon } from '../../ui/Icon';
import { AddToBoard } from './AddToBoard';
import { Sparkline } from './Sparkline';

const names = (hit: SearchHit, symbol: string) => sameSymbol(hit.symbol, symbol) || hit.aliases.some((alias) => sameSymbol(alias, symbol));

/** The hit of `symbol` among the results, else from a search of the symbol itself. */
function useHit(symbol: string, listed: readonly SearchHit[] | null) {
  const inList = listed?.find((hit) => names(hit, symbol)) ?? null;
  const lookup = useQuery({ ...marketQueries.search(symbol), enabled: inList == null });
  if (inList) return { hit: inList, error: null, searching: false };
  const found = lookup.data?.find((hit) => names(hit, symbol)) ?? null;
  return { hit: found, error: lookup.data ? null : (lookup.error?.message ?? null), searching: !lookup.data && !lookup.error };
}

/** `30/11/2026 · faltan 45 días`; `No vence` for instruments that do not expire. */
function expiryText(maturityDate: string | null, now: Date): string {
  if (!maturityDate) return 'No vence';
  const date = parseYyyymmdd(maturityDate);
  const shown = formatExchangeDate(maturityDate);
  if (!date) return shown;
  const days = calendarDaysBetween(now, date);
  if (days < 0) return `${shown} · vencido`;
  if (days === 0) return `${shown} · vence hoy`;
  return `${shown} · ${days === 1 ? 'falta 1 día' : `faltan ${days} días`}`;
}

/** The live figures: the worker holds the symbol while they are shown. */
function LiveFigures({ hit }: { hit: SearchHit }) {
  useEffect(() => holdSymbol(hit.symbol), [hit.symbol]);
  const state = useQuoteState(hit.symbol);
  const market = useMarketStatus();
  const quote = state?.quote;
  const live = market.state === 'open' && state?.live === true;
  const time = quote?.md.LA?.date;
  const note = live
    ? 'En vivo'
    : state == null
      ? 'Sin datos todavía'
      : typeof time === 'number' && time > 0
        ? `Último dato: ${formatMarketDateTime(time)}`
        : 'Sin datos en vivo';
  const now = new Date();
  const sign = String(changeDirection(quote));
  const figures: [string, string, string, string?][] = [
    ['Compra', 'bid', cellText('bid', quote, hit.decimals, now)],
    ['Venta', 'ask', cellText('ask', quote, hit.decimals, now)],
    ['Último', 'last', cellText('last', quote, hit.decimals, now)],
    ['Cierre anterior', 'close', cellText('close', quote, hit.decimals, now)],
    ['Variación', 'change', cellText('change', quote, hit.decimals, now), sign],
    ['Variación %', 'change_pct', cellText('change_pct', quote, hit.decimals, now), sign],
  ];
  return (
    <div className="search-detail__live" data-live={live}>
      <dl className="search-detail__figures">
        {figures.map(([label, field, text, signed]) => (
          <div key={field}>
            <dt>{label}</dt>
            <dd data-field={field} data-sign={signed}>
              {text}
            </dd>
          </div>
        ))}
      </dl>
      <p className="search-detail__note muted" data-field="note">
        {note}
      </p>
    </div>
  );
}

interface SymbolDetailProps {
  /** As the link names it. */
  symbol: string;
  /** The page's symbol results (null while searching, or when the search failed). */
  listed: readonly SearchHit[] | null;
  visores: OwnVisorRecord[] | null | undefined;
  onClose: () => void;
}

export function SymbolDetail({ symbol, listed, visores, onClose }: SymbolDetailProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { hit, error, searching } = useHit(symbol, listed);
  const found = hit != null;

  // Opened (or another symbol): the reader starts at its name.
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView({ block: 'nearest' });
  }, [symbol, found]);

  const close = (
    <button type="button" className="icon-button" onClick={onClose} aria-label="Cerrar el detalle" title="Cerrar el detalle">
      <Icon name="close" />
    </button>
  );
  if (!hit) {
    return (
      <section className="card search-detail" aria-labelledby={headingId}>
        <header className="search-detail__head">
          <h2 id={headingId} ref={heading} tabIndex={-1}>
            {symbol}
          </h2>
          {close}
        </header>
        {searching && <p className="muted">Buscando el símbolo…</p>}
        {error && <p className="form-error">{error}</p>}
        {!searching && !error && <p className="muted">Ningún instrumento se llama «{symbol}».</p>}
      </section>
    );
  }

  const facts: [string, string, string][] = [
    ['Vencimiento', 'expiration', expiryText(hit.maturityDate, new Date())],
    ['Tamaño del contrato', 'contract_size', formatExact(hit.contractSize)],
    ['Tick', 'tick', formatExact(hit.tick)],
    ['Moneda', 'currency', hit.currency],
  ];
  const shown = displaySymbol(hit.symbol);
  return (
    <section className="card search-detail" aria-labelledby={headingId} data-symbol={hit.symbol}>
      <header className="search-detail__head">
        <div>
          <h2 id={headingId} ref={heading} tabIndex={-1} title={hit.symbol}>
            {shown}
          </h2>
          <p className="search-detail__what">
            <span className="search-kind" data-field="kind">
              {instrumentKindLabel(hit.kind)}
            </span>{' '}
            {hit.description}
            {shown !== hit.symbol && <span className="muted search-detail__full"> · {hit.symbol}</span>}
          </p>
        </div>
        {close}
      </header>
      <div className="search-detail__body">
        <div>
          <LiveFigures hit={hit} />
          <dl className="search-detail__facts">
            {facts.map(([label, field, text]) => (
              <div key={field}>
                <dt>{label}</dt>
                <dd data-field={field}>{text}</dd>
              </div>
            ))}
          </dl>
        </div>
        <Sparkline symbol={hit.symbol} decimals={hit.decimals} />
      </div>
      <AddToBoard symbol={hit.symbol} visores={visores} />
    </section>
  );
}
