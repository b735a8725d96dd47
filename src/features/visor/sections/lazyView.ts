// A section type's body as a chunk of its own (issue 21): the registry's entry (label, sizes,
// default config) is small and loaded with the visor screen, while the view, with its libraries
// (lightweight-charts for charts and curves), loads the first time a section of that type is
// drawn. SectionFrame shows a loading line inside the section's frame meanwhile.
import { lazy, type ComponentType } from 'react';
import type { SectionType } from '../../../protocol/workspace';
import type { SectionViewProps } from './types';

export type SectionView<T extends SectionType> = ComponentType<SectionViewProps<T>>;

/** A view loaded by `load` on first render, for a SectionModule's `View`. */
export function lazyView<T extends SectionType>(load: () => Promise<SectionView<T>>): SectionView<T> {
  return lazy(async () => ({ default: await load() }));
}
