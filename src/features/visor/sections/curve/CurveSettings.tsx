// The curve's settings (edit mode): the product (those the catalogue lists with two months or
// more), the spot reference (the catalogue's for the product, none, or another listed
// symbol), the day count and the rate the chart draws.
import { useId, useState, type FormEvent } from 'react';
import { exchangeSymbol } from '../../../../lib/symbolNames';
import type { CurveConfig } from '../../../../protocol/workspace';
import type { ConfigUpdate } from '../types';
import type { CurveCatalogue } from './useCurve';

interface CurveSettingsProps {
  config: CurveConfig;
  catalogue: CurveCatalogue;
  /** The spot references of a product (the catalogue's own, natural one first). */
  spotsOf(product: string): string[];
  disabledReason: string | null;
  onChange(update: ConfigUpdate<'curve'>): void;
  onClose(): void;
}

const CATALOGUE_LOADING = 'El catálogo de instrumentos todavía no cargó: intente de nuevo en un momento';

export function CurveSettings({ config, catalogue, spotsOf, disabledReason, onChange, onClose }: CurveSettingsProps) {
  const id = useId();
  const off = disabledReason != null;
  const [other, setOther] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const products = catalogue.products.includes(config.product) ? catalogue.products : [...catalogue.products, config.product];
  const spots = [...new Set([...catalogue.spotCandidates, ...(config.spot ? [config.spot] : [])])];
  const rate = config.rate ?? 'tna';

  const chooseProduct = (product: string) =>
    onChange((current) => (current.product === product ? current : { ...current, product, spot: spotsOf(product)[0] ?? '' }));
  const useOther = (event: FormEvent) => {
    event.preventDefault();
    const symbol = exchangeSymbol(other);
    if (!symbol) return setProblem('Escriba el símbolo de la referencia (p. ej. DLR/SPOT)');
    // Checked against the catalogue, never taken unchecked while it loads.
    if (!catalogue.instruments) return setProblem(CATALOGUE_LOADING);
    if (!catalogue.bySymbol.has(symbol)) return setProblem(`«${symbol}» no está en el catálogo de instrumentos`);
    setProblem(null);
    setOther('');
    onChange((current) => ({ ...current, spot: symbol }));
  };

  return (
    <div className="vs-settings vs-curve__settings" role="group" aria-labelledby={`${id}-title`}>
      <div className="vs-settings__head">
        <h3 id={`${id}-title`}>Configuración de la curva</h3>
        <button type="button" className="button" onClick={onClose}>
          Cerrar
        </button>
      </div>
      <div className="vs-curve__fields">
        <label className="vs-curve__field">
          <span>Producto</span>
          <select value={config.product} disabled={off} onChange={(event) => chooseProduct(event.target.value)}>
            {products.map((product) => (
              <option key={product} value={product}>
                {product}
                {catalogue.products.includes(product) ? '' : ' (sin meses vigentes)'}
              </option>
            ))}
          </select>
        </label>
        <label className="vs-curve__field">
          <span>Referencia spot</span>
          <select value={config.spot} disabled={off} onChange={(event) => onChange((current) => ({ ...current, spot: event.target.value }))}>
            {spots.map((symbol) => (
              <option key={symbol} value={symbol}>
                {symbol}
                {catalogue.bySymbol.get(symbol) ? ` — ${catalogue.bySymbol.get(symbol)!.securityDescription}` : ''}
              </option>
            ))}
            <option value="">Ninguna (solo tasas forward)</option>
          </select>
        </label>
        <form className="vs-curve__field vs-curve__other" onSubmit={useOther}>
          <label htmlFor={`${id}-other`}>Otra referencia</label>
          <div className="vs-curve__other-row">
            <input
              id={`${id}-other`}
              type="text"
              value={other}
              disabled={off}
              placeholder="Símbolo del catálogo"
              aria-invalid={problem != null}
              aria-describedby={problem ? `${id}-problem` : undefined}
              onChange={(event) => setOther(event.target.value)}
            />
            <button
              type="submit"
              className="button"
              disabled={off || !catalogue.instruments}
              title={disabledReason ?? (catalogue.instruments ? undefined : CATALOGUE_LOADING)}
            >
              Usar
            </button>
          </div>
        </form>
        <fieldset className="vs-curve__choices">
          <legend>Días</legend>
          <label className="vs-check">
            <input
              type="radio"
              name={`${id}-days`}
              checked={config.dayCount === 'calendar'}
              disabled={off}
              onChange={() => onChange((current) => ({ ...current, dayCount: 'calendar' }))}
            />
            Corridos (año de 365)
          </label>
          <label className="vs-check">
            <input
              type="radio"
              name={`${id}-days`}
              checked={config.dayCount === 'weekdays'}
              disabled={off}
              onChange={() => onChange((current) => ({ ...current, dayCount: 'weekdays' }))}
            />
            Hábiles, lunes a viernes (año de 252)
          </label>
        </fieldset>
        <fieldset className="vs-curve__choices">
          <legend>Gráfico</legend>
          <label className="vs-check">
            <input
              type="radio"
              name={`${id}-rate`}
              checked={rate === 'tna'}
              disabled={off}
              onChange={() => onChange((current) => ({ ...current, rate: 'tna' }))}
            />
            TNA
          </label>
          <label className="vs-check">
            <input
              type="radio"
              name={`${id}-rate`}
              checked={rate === 'tea'}
              disabled={off}
              onChange={() => onChange((current) => ({ ...current, rate: 'tea' }))}
            />
            TEA
          </label>
        </fieldset>
      </div>
      {problem && (
        <p className="vs-curve__problem" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      )}
      {off && <p className="vs-note">{disabledReason}</p>}
    </div>
  );
}
