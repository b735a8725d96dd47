// A table of broker positions marked live (issue 19; reused by the admin's positions screen,
// issue 20): instrument, quantity, average price, last price from the market feed, P&L and
// P&L % in green or red, and totals per currency. Props in, nothing of a section: give it
// the positions of a snapshot. It holds the instruments' symbols through the same
// market-data path as the quote boards (holdSymbol) and re-renders once per batch of ticks
// that moved any of them (subscribeQuotes).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { marketQueries } from '../../../../data/queries/market';
import { isStaleQuote, subscribeQuotes, useMarketStatus, useStaleMarkets, type QuoteState } from '../../../../data/store';
import { holdSymbol } from '../../../../data/worker';
import { DEFAULT_DECIMALS, formatNumber, formatSigned } from '../../../../lib/numberFormat';
import { markPosition, pnlSign, pointValueOf, totalsByCurrency, type InstrumentTerms, type PositionFields } from '../../../../lib/positionsPnl';
import { EMPTY_CELL, lastPrice } from '../../../../lib/quoteColumns';
import { displaySymbol } from '../../../../lib/symbolNames';
import { staleNote } from '../quotes/liveCells';

export interface PositionsTableProps {
  positions: readonly PositionFields[];
  /** The table's accessible name (e.g. the account). */
  label: string;
  /** Shown instead of an empty table. */
  emptyText?: string;
}

interface Terms extends InstrumentTerms {
  decimals: number;
}

/** Each instrument's value per point, currency and price decimals, from the catalogue (read once per tab). */
function useInstrumentTerms(): (symbol: string) => Terms | null {
  const { data } = useQuery(marketQueries.instruments());
  return useMemo(() => {
    const bySymbol = new Map<string, Terms>(
      (data ?? []).map((instrument) => [
        instrument.instrumentId.symbol,
        {
          pointValue: pointValueOf(instrument.contractMultiplier, instrument.cficode),
          currency: instrument.currency,
          decimals: instrument.instrumentPricePrecision,
        },
      ]),
    );
    return (symbol: string) => bySymbol.get(symbol) ?? null;
  }, [data]);
}

interface LastPrice {
  price: number | null;
  /** Not live: the market socket is down, its quote is not live, or the symbol's market is stopped, silent or closed. */
  stale: boolean;
  /** Epoch ms of the last trade, for the stale mark's note. */
  time: number | null;
}

/** The last price of each symbol and whether it is live, re-read once per batch of ticks that moved any of them. */
function useLastPrices(symbols: readonly string[]): ReadonlyMap<string, LastPrice> {
  const key = symbols.join('\n');
  const [states, setStates] = useState<ReadonlyMap<string, QuoteState | null>>(new Map());
  const staleMarkets = useStaleMarkets();
  // As the boards, cards and curve: with the socket down no price is live, whatever it last said.
  const marketLive = useMarketStatus().state === 'open';
  useEffect(() => {
    const list = key === '' ? [] : key.split('\n');
    const releases = list.map((symbol) => holdSymbol(symbol));
    const stop = subscribeQuotes(list, (next: ReadonlyMap<string, QuoteState | null>) => setStates(new Map(next)));
    return () => {
      stop();
      releases.forEach((release) => release());
    };
  }, [key]);
  return useMemo(() => {
    const prices = new Map<string, LastPrice>();
    for (const [symbol, state] of states) {
      const quote = state?.quote;
      prices.set(symbol, {
        price: lastPrice(quote),
        stale: state != null && (!marketLive || isStaleQuote(state, staleMarkets)),
        time: quote?.md.LA?.date ?? null,
      });
    }
    return prices;
  }, [states, staleMarkets, marketLive]);
}

const MONEY_DECIMALS = 2;
const money = (value: number | null) => (value == null ? EMPTY_CELL : formatSigned(value, MONEY_DECIMALS));
const percent = (value: number | null) => (value == null ? EMPTY_CELL : `${formatSigned(value, 2)} %`);

export function PositionsTable({ positions, label, emptyText = 'La cuenta no tiene posiciones.' }: PositionsTableProps) {
  const termsOf = useInstrumentTerms();
  const symbols = useMemo(() => [...new Set(positions.map((position) => position.symbol))].sort(), [positions]);
  const prices = useLastPrices(symbols);
  const marks = positions.map((position) => markPosition(position, prices.get(position.symbol)?.price ?? null, termsOf(position.symbol)));
  const totals = totalsByCurrency(marks);
  const staleOf = (symbol: string, lastPrice: number | null) => prices.get(symbol)?.stale === true && lastPrice != null;
  // A total that adds a P&L valued at a price not live is not live either.
  const staleCurrencies = new Set(marks.filter((mark) => staleOf(mark.symbol, mark.lastPrice)).map((mark) => mark.currency));

  if (positions.length === 0) return <p className="vs-empty">{emptyText}</p>;
  return (
    <table className="vs-pos-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Instrumento</th>
          <th scope="col">Cantidad</th>
          <th scope="col">Precio prom.</th>
          <th scope="col">Último</th>
          <th scope="col">P&amp;L</th>
          <th scope="col">P&amp;L %</th>
        </tr>
      </thead>
      <tbody>
        {marks.map((mark) => {
          const decimals = termsOf(mark.symbol)?.decimals ?? DEFAULT_DECIMALS;
          const last = prices.get(mark.symbol);
          // Valued at a price that is not live: said as the boards say it (grey italics, the time).
          const stale = staleOf(mark.symbol, mark.lastPrice);
          return (
            <tr
              key={mark.symbol}
              data-symbol={mark.symbol}
              data-live={mark.lastPrice != null}
              data-stale={stale}
              title={stale ? `No está en vivo (${staleNote(last?.time ?? null)})` : undefined}
            >
              <th scope="row" title={mark.symbol}>
                {displaySymbol(mark.symbol)}
              </th>
              <td data-field="quantity">{formatNumber(mark.quantity, 0)}</td>
              <td data-field="average">{mark.averagePrice == null ? EMPTY_CELL : formatNumber(mark.averagePrice, decimals)}</td>
              <td data-field="last">{mark.lastPrice == null ? EMPTY_CELL : formatNumber(mark.lastPrice, decimals)}</td>
              <td data-field="pnl" data-sign={pnlSign(mark.pnl)}>
                {money(mark.pnl)}
              </td>
              <td data-field="pnl_pct" data-sign={pnlSign(mark.pnlPct)}>
                {percent(mark.pnlPct)}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        {totals.map((total) => (
          <tr
            key={total.currency ?? '-'}
            data-total={total.currency ?? ''}
            data-stale={staleCurrencies.has(total.currency)}
            title={staleCurrencies.has(total.currency) ? 'Incluye precios que no están en vivo' : undefined}
          >
            <th scope="row" colSpan={4}>
              Total{total.currency ? ` ${total.currency}` : ''}
              {total.unmarked > 0 && <span className="vs-pos-table__note"> (sin precio: {total.unmarked})</span>}
            </th>
            <td data-field="pnl" data-sign={pnlSign(total.pnlPct == null ? null : total.pnl)}>
              {total.pnlPct == null ? EMPTY_CELL : money(total.pnl)}
            </td>
            <td data-field="pnl_pct" data-sign={pnlSign(total.pnlPct)}>
              {percent(total.pnlPct)}
            </td>
          </tr>
        ))}
      </tfoot>
    </table>
  );
}
