// The formula section type (`Fórmulas`): one entry of the visor's registry.
import { lazyView } from '../lazyView';
import type { SectionModule } from '../types';

export const formulaSection: SectionModule<'formula'> = {
  type: 'formula',
  label: 'Fórmulas',
  defaultTitle: 'Fórmulas',
  defaultConfig: () => ({ formulas: [] }),
  defaultSize: { w: 6, h: 5 },
  minSize: { w: 3, h: 3 },
  View: lazyView(async () => (await import('./FormulaView')).FormulaView),
};
