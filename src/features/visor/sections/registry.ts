// The section types the visor screen offers (issue 18): one module per type, one entry here.
// The grid and the frame know only this map; a type without an entry is drawn as a frame
// that says it is not available yet.
import type { SectionType } from '../../../protocol/workspace';
import { chartSection } from './chart';
import { curveSection } from './curve';
import { formulaSection } from './formula';
import { positionsSection } from './positions';
import { quotesSection } from './quotes';
import type { LazySectionView } from './lazyView';
import type { SectionModule } from './types';

export type SectionRegistry = { [T in SectionType]?: SectionModule<T> };

export const sectionRegistry: SectionRegistry = {
  quotes: quotesSection,
  formula: formulaSection,
  chart: chartSection,
  curve: curveSection,
  positions: positionsSection,
};

/** The types `Agregar sección` offers, in the registry's order. */
export function addableSections(registry: SectionRegistry = sectionRegistry): SectionModule<SectionType>[] {
  return Object.values(registry) as SectionModule<SectionType>[];
}

/**
 * Starts loading every section type's view (lazyView.ts), for a visor about to open: the chunks
 * come while the visor itself is read, instead of after it. A failure is left to the section's
 * own load.
 */
export function preloadSectionViews(registry: SectionRegistry = sectionRegistry): void {
  for (const module of addableSections(registry)) {
    const view = module.View as Partial<Pick<LazySectionView<SectionType>, 'preload'>>;
    void view.preload?.().catch(() => {});
  }
}

/** The module of a type, typed for it, or undefined when the type has none yet. */
export function moduleOf<T extends SectionType>(type: T, registry: SectionRegistry = sectionRegistry): SectionModule<T> | undefined {
  return registry[type] as SectionModule<T> | undefined;
}
