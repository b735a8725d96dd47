// Sample visor sections, one of each type with every config field set: the API tests' and
// bench:http's. No test runner in here, so a bench script can import it.
import type { Section } from '../src/protocol/workspace.js';

/** One section of each type, with every config field set. */
export const SECTIONS: Section[] = [
  {
    id: 'quotes-1',
    type: 'quotes',
    title: 'Dólar futuro',
    layout: { x: 0, y: 0, w: 6, h: 4 },
    config: {
      rows: [
        { kind: 'symbol', symbol: 'DLR/DIC26' },
        { kind: 'symbol', symbol: 'DLR/ENE27' },
        { kind: 'formula', name: 'Pase', expression: 'ROFEX:DLR/ENE27 - ROFEX:DLR/DIC26', unit: 'price' },
      ],
      columns: ['bid', 'ask', 'last', 'change_pct'],
    },
  },
  {
    id: 'chart-1',
    type: 'chart',
    title: 'AL30 / AL30D',
    layout: { x: 6, y: 0, w: 6, h: 4 },
    config: { series: ['BYMA:AL30 / BYMA:AL30D'], interval: '1d', range: '1Y' },
  },
  {
    id: 'curve-1',
    type: 'curve',
    title: 'Curva DLR',
    layout: { x: 0, y: 4, w: 12, h: 5 },
    config: { product: 'DLR', spot: 'USDARS', dayCount: 'weekdays' },
  },
  {
    id: 'formula-1',
    type: 'formula',
    title: 'CCL',
    layout: { x: 0, y: 9, w: 4, h: 2 },
    config: { formulas: [{ name: 'CCL', expression: 'MERV - XMEV - AL30 - CI / MERV - XMEV - AL30D - CI', unit: 'price' }] },
  },
  {
    id: 'positions-1',
    type: 'positions',
    title: 'Cartera',
    layout: { x: 4, y: 9, w: 8, h: 3 },
    config: { account: '12345', brokerUrl: 'https://api.remarkets.primary.com.ar', username: 'usuario-del-broker' },
  },
];
