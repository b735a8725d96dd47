// The spec's test route (/test) as a live quote board: symbols picked by search, one row per
// symbol fed by the data worker through its Jotai atom, cached prices shown at once and
// marked stale until live data arrives, the socket's state, and the worker's event log. With
// `?secciones`, the visor's quote board and formula sections below it (SectionsPreview).
import { useLocation } from 'react-router-dom';
import { useMarketStatus } from '../../data/store';
import { EventLog } from './EventLog';
import { MarketConnection } from './MarketConnection';
import { QuoteRow } from './QuoteRow';
import { SECTIONS_PARAM, SectionsPreview } from './SectionsPreview';
import { SymbolSearch } from './SymbolSearch';
import { parseSymbolList, useBoardSymbols } from './boardSymbols';
import './quoteBoard.css';

export function QuoteBoardPage() {
  const { search } = useLocation();
  const { symbols, add, remove } = useBoardSymbols(search);
  const live = useMarketStatus().state === 'open';

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
          <div role="table" className="quote-board" data-live={live} aria-label="Cotizaciones">
            <div role="rowgroup">
              <div role="row" className="quote-board__row quote-board__head">
                <span role="columnheader">Símbolo</span>
                <span role="columnheader">Compra</span>
                <span role="columnheader">Venta</span>
                <span role="columnheader">Último</span>
                <span role="columnheader">Variación</span>
                <span role="columnheader">Volumen</span>
                <span role="columnheader">
                  <span className="visually-hidden">Acciones</span>
                </span>
              </div>
            </div>
            <div role="rowgroup">
              {symbols.map((symbol) => (
                <QuoteRow key={symbol} symbol={symbol} onRemove={remove} />
              ))}
            </div>
          </div>
        )}
      </div>
      {new URLSearchParams(search).has(SECTIONS_PARAM) && <SectionsPreview symbols={parseSymbolList(new URLSearchParams(search).get(SECTIONS_PARAM))} />}
      <EventLog />
    </section>
  );
}
