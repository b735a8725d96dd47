// Formulas a trader of the Argentine market expects (issue 18), written with the catalogue's
// names (server/market/catalogue.ts): AL30 in pesos (`BYMA:AL30`, the 24hs line), in MEP
// dollars (`BYMA:AL30D`) and in cable dollars (`BYMA:AL30C`); the wholesale A3500 dollar is
// the spot reference `ROFEX:DLR/SPOT`. Each says what its value is: MEP and CCL are prices,
// the canje a ratio (its premium moves in points), the gap a rate in percent.
import type { NamedFormula } from '../protocol/workspace';

export interface FormulaPreset extends NamedFormula {
  /** What the formula measures, for the settings list. */
  description: string;
}

const MEP = 'BYMA:AL30 / BYMA:AL30D';
const CCL = 'BYMA:AL30 / BYMA:AL30C';

export const FORMULA_PRESETS: readonly FormulaPreset[] = [
  { name: 'Dólar MEP', expression: MEP, unit: 'price', description: 'AL30 en pesos sobre AL30 en dólares MEP' },
  { name: 'Dólar CCL', expression: CCL, unit: 'price', description: 'AL30 en pesos sobre AL30 en dólares cable' },
  { name: 'Canje', expression: `(${CCL}) / (${MEP})`, unit: 'ratio', description: 'CCL sobre MEP (cociente: su prima varía en puntos)' },
  {
    name: 'Brecha MEP %',
    expression: `((${MEP}) / ROFEX:DLR/SPOT - 1) * 100`,
    unit: 'rate',
    description: 'MEP sobre el dólar mayorista A3500, en porcentaje (varía en puntos)',
  },
];
