// The quote board section type (`Cotizaciones`): one entry of the visor's registry.
import { lazyView } from '../lazyView';
import type { SectionModule } from '../types';

export const quotesSection: SectionModule<'quotes'> = {
  type: 'quotes',
  label: 'Cotizaciones',
  defaultTitle: 'Cotizaciones',
  defaultConfig: () => ({ rows: [], columns: [] }),
  defaultSize: { w: 6, h: 8 },
  minSize: { w: 3, h: 4 },
  View: lazyView(async () => (await import('./QuotesView')).QuotesView),
};
