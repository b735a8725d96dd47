// An account's fills, newest first (issue 19; reused by the admin's positions screen, issue
// 20): time, instrument, side, quantity and price of each execution. Props in: give it the
// fills as the broker lists them (null while they are not known yet).
import { useMemo } from 'react';
import { fillTimeText, newestFirst, transactTimeMs } from '../../../../lib/fills';
import { formatNumber } from '../../../../lib/numberFormat';
import { displaySymbol } from '../../../../lib/symbolNames';
import type { Fill } from '../../../../protocol/broker';

export interface FillsListProps {
  fills: readonly Fill[] | null;
  /** The table's accessible name. */
  label: string;
  /** At most this many (the newest) are drawn. */
  limit?: number;
}

const isoTime = (text: string) => {
  const ms = transactTimeMs(text);
  return ms == null ? undefined : new Date(ms).toISOString();
};

const SIDE: Record<Fill['side'], string> = { BUY: 'Compra', SELL: 'Venta' };

export function FillsList({ fills, label, limit = 100 }: FillsListProps) {
  const ordered = useMemo(() => (fills ? newestFirst(fills).slice(0, limit) : []), [fills, limit]);
  if (fills == null) return <p className="vs-empty">Cargando operaciones…</p>;
  if (ordered.length === 0) return <p className="vs-empty">Todavía no hay operaciones en la cuenta.</p>;
  return (
    <table className="vs-fills" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Hora</th>
          <th scope="col">Instrumento</th>
          <th scope="col">Lado</th>
          <th scope="col">Cantidad</th>
          <th scope="col">Precio</th>
        </tr>
      </thead>
      <tbody>
        {ordered.map((fill) => (
          <tr key={fill.execId} data-exec-id={fill.execId} data-side={fill.side}>
            <td data-field="time">
              <time dateTime={isoTime(fill.transactTime)}>{fillTimeText(fill.transactTime)}</time>
            </td>
            <th scope="row" title={fill.instrumentId.symbol}>
              {displaySymbol(fill.instrumentId.symbol)}
            </th>
            <td data-field="side">{SIDE[fill.side]}</td>
            <td data-field="quantity">{formatNumber(fill.lastQty, 0)}</td>
            <td data-field="price">{formatNumber(fill.lastPx, 2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
