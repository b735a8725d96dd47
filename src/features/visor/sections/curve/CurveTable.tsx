// The curve's table: one row per live month, nearest first. A price from the bid/ask middle
// (no trade yet) is marked `medio`; figures that cannot be computed show a dash.
import { DEFAULT_DECIMALS, formatNumber, formatSigned } from '../../../../lib/numberFormat';
import { EMPTY_CELL } from '../../../../lib/quoteColumns';
import type { DayCount } from '../../../../lib/impliedRates';
import { describeChange } from '../../../../lib/valueChange';
import { formatExpiry, percent } from './curveFormat';
import type { CurveRow } from './curveRows';

const MID_TITLE = 'Sin operaciones: precio medio entre la mejor compra y la mejor venta';

interface CurveTableProps {
  rows: readonly CurveRow[];
  dayCount: DayCount;
  decimalsOf(symbol: string): number;
  label: string;
}

export function CurveTable({ rows, dayCount, decimalsOf, label }: CurveTableProps) {
  const daysHeader = dayCount === 'weekdays' ? 'Días hábiles' : 'Días corridos';
  return (
    <div className="vs-curve__table-scroll">
      <table className="vs-curve__table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Contrato</th>
            <th scope="col">Vencimiento</th>
            <th
              scope="col"
              title={dayCount === 'weekdays' ? 'Días de lunes a viernes hasta el vencimiento (año de 252)' : 'Días corridos hasta el vencimiento (año de 365)'}
            >
              {daysHeader}
            </th>
            <th scope="col" title="Último operado, o el medio entre compra y venta cuando no hubo operaciones">
              Precio
            </th>
            <th scope="col" title="Precio del futuro menos la referencia spot">
              Base
            </th>
            <th scope="col" title="Devaluación implícita al vencimiento: F/S − 1">
              Dev. implícita
            </th>
            <th scope="col" title="Cambio de la devaluación implícita desde el cierre anterior del futuro y del spot, en puntos porcentuales (1 pp = 100 pb)">
              Var. dev.
            </th>
            <th scope="col" title="Tasa nominal anual implícita">
              TNA
            </th>
            <th scope="col" title="Tasa efectiva anual implícita">
              TEA
            </th>
            <th scope="col" title="Tasa forward nominal anual entre el mes anterior y este">
              Forward
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const decimals = decimalsOf(row.contract.symbol);
            return (
              <tr key={row.contract.symbol} data-symbol={row.contract.symbol} data-stale={!row.live}>
                <th scope="row" data-field="contract">
                  {row.contract.symbol}
                </th>
                <td data-field="expiry">{formatExpiry(row.contract.expiry)}</td>
                <td data-field="days" className="vs-curve__num">
                  {row.days}
                </td>
                <td data-field="price" className="vs-curve__num" data-source={row.price?.source ?? 'none'}>
                  {row.price ? formatNumber(row.price.price, row.price.source === 'mid' ? Math.max(decimals, 2) : decimals) : EMPTY_CELL}
                  {row.price?.source === 'mid' && (
                    <span className="vs-curve__mid" title={MID_TITLE}>
                      {' '}
                      medio
                    </span>
                  )}
                </td>
                <td data-field="basis" className="vs-curve__num">
                  {row.rates ? formatSigned(row.rates.basis, Math.min(DEFAULT_DECIMALS, Math.max(decimals, 2))) : EMPTY_CELL}
                </td>
                <td data-field="devaluation" className="vs-curve__num">
                  {percent(row.rates?.devaluation)}
                </td>
                <td
                  data-field="devaluation_change"
                  className="vs-curve__num"
                  data-sign={row.devaluationChange ? Math.sign(row.devaluationChange.delta) : 0}
                  title={row.devaluationChange ? describeChange(row.devaluationChange) : undefined}
                >
                  {row.devaluationChange?.text ?? EMPTY_CELL}
                </td>
                <td data-field="tna" className="vs-curve__num">
                  {percent(row.rates?.tna)}
                </td>
                <td data-field="tea" className="vs-curve__num">
                  {percent(row.rates?.tea)}
                </td>
                <td data-field="forward" className="vs-curve__num">
                  {percent(row.forward)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
