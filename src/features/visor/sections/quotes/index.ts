// The quote board section type (`Cotizaciones`): one entry of the visor's registry.
import type { SectionModule } from '../types';
import { QuotesView } from './QuotesView';

export const quotesSection: SectionModule<'quotes'> = {
  type: 'quotes',
  label: 'Cotizaciones',
  defaultTitle: 'Cotizaciones',
  defaultConfig: () => ({ rows: [], columns: [] }),
  defaultSize: { w: 6, h: 8 },
  minSize: { w: 3, h: 4 },
  View: QuotesView,
};
