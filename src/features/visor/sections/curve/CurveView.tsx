// The futures curve section (`Curva`, issue 19): a product's live months with their days to
// expiry, price, basis against the spot reference, implied devaluation, TNA, TEA and forward
// rates, and a chart of the TNA (or TEA) by expiry, all moving with the ticks. The months come
// from the catalogue and today's date, so expired ones drop out and new ones join as the
// catalogue rolls. The settings (edit mode) choose product, spot, day count and the chart's
// rate; in public mode it only shows.
import type { ReactNode } from 'react';
import { spotCandidates } from '../../../../lib/futuresCurve';
import { YEAR_BASE } from '../../../../lib/impliedRates';
import { DEFAULT_DECIMALS, formatNumber } from '../../../../lib/numberFormat';
import { EMPTY_CELL } from '../../../../lib/quoteColumns';
import type { SectionViewProps } from '../types';
import { CurveChart, type CurvePoint } from './CurveChart';
import { CurveSettings } from './CurveSettings';
import { readCurveConfig } from './curveConfig';
import { CurveTable } from './CurveTable';
import { useCurveCatalogue, useCurveSnapshot } from './useCurve';
import '../formula/formula.css';
import '../quotes/quotes.css';
import './curve.css';

export function CurveView({ section, editable, onConfigChange, settingsOpen, onSettingsClose, disabledReason }: SectionViewProps<'curve'>) {
  const config = readCurveConfig(section.config);
  const catalogue = useCurveCatalogue(config.product);
  const snapshot = useCurveSnapshot(catalogue.contracts, config.spot, catalogue.today, config.dayCount);
  const rate = config.rate ?? 'tna';
  const rateLabel = rate === 'tea' ? 'TEA' : 'TNA';

  // Every render comes from a batch of ticks or a change of config; the chart moves only the points that changed.
  const points: CurvePoint[] = snapshot.rows.flatMap((row) => {
    const value = rate === 'tea' ? row.rates?.tea : row.rates?.tna;
    return value == null || row.calendarDays <= 0 ? [] : [{ days: row.calendarDays, value: value * 100, month: row.contract.month }];
  });
  const decimalsOf = (symbol: string) => catalogue.bySymbol.get(symbol)?.instrumentPricePrecision ?? DEFAULT_DECIMALS;
  const spotInstrument = config.spot ? catalogue.bySymbol.get(config.spot) : undefined;
  const label = section.title || 'Curva';

  let body: ReactNode;
  if (catalogue.failed) body = <p className="vs-empty">No se pudo leer el catálogo de instrumentos. Se reintentará al recuperar la conexión.</p>;
  else if (catalogue.loading) body = <p className="vs-empty">Cargando los contratos…</p>;
  else if (catalogue.contracts.length === 0) body = <p className="vs-empty">No hay contratos vigentes de {config.product}.</p>;
  else
    body = (
      <div className="vs-curve__body">
        <CurveTable rows={snapshot.rows} dayCount={config.dayCount} decimalsOf={decimalsOf} label={`${label}: contratos de ${config.product}`} />
        <CurveChart points={points} rateLabel={rateLabel} today={catalogue.today} />
      </div>
    );

  return (
    <div className="vs-curve" data-live={snapshot.marketLive} data-product={config.product} data-day-count={config.dayCount} data-rate={rate}>
      {editable && settingsOpen && (
        <CurveSettings
          config={config}
          catalogue={catalogue}
          spotsOf={(product) => spotCandidates(catalogue.instruments ?? [], product)}
          disabledReason={disabledReason}
          onChange={(update) =>
            onConfigChange((current) => {
              const before = readCurveConfig(current);
              const next = update(before);
              return next === before ? current : next;
            })
          }
          onClose={onSettingsClose}
        />
      )}
      <p className="vs-curve__summary">
        <span>
          {config.product} · {config.dayCount === 'weekdays' ? `días hábiles (año de ${YEAR_BASE.weekdays})` : `días corridos (año de ${YEAR_BASE.calendar})`} ·
          gráfico: {rateLabel}
        </span>
        <span className="vs-curve__spot" data-stale={!snapshot.spotLive}>
          {config.spot ? (
            <>
              Spot <span title={spotInstrument?.securityDescription ?? config.spot}>{config.spot === 'DLR/SPOT' ? 'A3500' : config.spot}</span>:{' '}
              <strong data-field="spot">{snapshot.spot ? formatNumber(snapshot.spot.price, decimalsOf(config.spot)) : EMPTY_CELL}</strong>
              {!snapshot.spot && <span className="vs-note"> sin precio: no hay base ni tasas implícitas</span>}
            </>
          ) : (
            'Sin referencia spot: solo tasas forward'
          )}
        </span>
      </p>
      {body}
    </div>
  );
}
