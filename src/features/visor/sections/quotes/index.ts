// Placeholder of the quote board module, replaced wholesale by its own branch (issue 18):
// lists the section's symbols so the screen compiles and can be tried meanwhile.
import { createElement } from 'react';
import type { SectionModule, SectionViewProps } from '../types';

function QuotesView({ section }: SectionViewProps<'quotes'>) {
  return createElement(
    'ul',
    { className: 'section-plain-list' },
    section.config.symbols.map((symbol) => createElement('li', { key: symbol }, symbol)),
  );
}

export const quotesSection: SectionModule<'quotes'> = {
  type: 'quotes',
  label: 'Cotizaciones',
  defaultTitle: 'Cotizaciones',
  defaultConfig: () => ({ symbols: [], columns: ['bid', 'ask', 'last', 'change_pct'] }),
  defaultSize: { w: 6, h: 8 },
  minSize: { w: 3, h: 4 },
  View: QuotesView,
};
