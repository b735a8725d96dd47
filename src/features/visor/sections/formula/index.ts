// Placeholder of the formula module, replaced wholesale by its own branch (issue 18): lists
// the section's formulas (name = expression) so the screen compiles and can be tried meanwhile.
import { createElement } from 'react';
import type { SectionModule, SectionViewProps } from '../types';

function FormulaView({ section }: SectionViewProps<'formula'>) {
  return createElement(
    'ul',
    { className: 'section-plain-list' },
    section.config.formulas.map((formula) => createElement('li', { key: formula.name }, `${formula.name} = ${formula.expression}`)),
  );
}

export const formulaSection: SectionModule<'formula'> = {
  type: 'formula',
  label: 'Fórmulas',
  defaultTitle: 'Fórmulas',
  defaultConfig: () => ({ formulas: [] }),
  defaultSize: { w: 6, h: 6 },
  minSize: { w: 3, h: 3 },
  View: FormulaView,
};
