// The spec's test route (/test) as a live quote board: symbols picked by search, one row per
// symbol fed by the data worker through its Jotai atom, cached prices shown at once and
// marked stale until live data arrives, the socket's state, and the worker's event log.
import { useLocation } from 'react-router-dom';
import { useMarketConnection } from '../../data/quotes';
import { EventLog } from './EventLog';
import { MarketConnection } from './MarketConnection';
import { QuoteRow } from './QuoteRow';
import { SymbolSearch } from './SymbolSearch';
import { useBoardSymbols } from './boardSymbols';
import './quoteBoard.css';

export function QuoteBoardPage() {
  const { search } = useLocation();
  const { symbols, add, remove } = useBoardSymbols(search);
  const live = useMarketConnection().state === 'open';

  return (
    <section className="page quote-board-page">
      <div className="quote-board-page__head">
        <h1>Test</h1>
        <MarketConnection />
      </div>
      <p className="page__lead">Cotizaciones en vivo. Los precios en gris son los últimos conocidos y aún no se confirmaron en vivo.</p>
      <div className="card">
        <SymbolSearch onAdd={add} />
      </div>
      <div className="card quote-board__card">
        {symbols.length === 0 ? (
          <p>Agregue un símbolo para ver sus precios.</p>
        ) : (
          <table className="quote-board" data-live={live} aria-label="Cotizaciones">
            <colgroup>
              <col className="quote-board__col-symbol" />
              <col span={5} />
              <col className="quote-board__col-actions" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Símbolo</th>
                <th scope="col">Compra</th>
                <th scope="col">Venta</th>
                <th scope="col">Último</th>
                <th scope="col">Variación</th>
                <th scope="col">Volumen</th>
                <th scope="col">
                  <span className="visually-hidden">Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {symbols.map((symbol) => (
                <QuoteRow key={symbol} symbol={symbol} onRemove={remove} />
              ))}
            </tbody>
          </table>
        )}
      </div>
      <EventLog />
    </section>
  );
}
