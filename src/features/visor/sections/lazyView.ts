// A section type's body as a chunk of its own (issue 21): the registry's entry (label, sizes,
// default config) is small and loaded with the visor screen, while the view, with its libraries
// (lightweight-charts for charts and curves), loads the first time a section of that type is
// drawn, or earlier through `preload` (the visor route starts every type's when a visor is about
// to open: registry.ts, preloadSectionViews). SectionFrame shows a loading line inside the
// section's frame meanwhile.
import { lazy, type ComponentType } from 'react';
import type { SectionType } from '../../../protocol/workspace';
import type { SectionViewProps } from './types';

export type SectionView<T extends SectionType> = ComponentType<SectionViewProps<T>>;

/** A view loaded on first render, or by `preload` before (once; again after a failure). */
export type LazySectionView<T extends SectionType> = SectionView<T> & { preload: () => Promise<SectionView<T>> };

export function lazyView<T extends SectionType>(load: () => Promise<SectionView<T>>): LazySectionView<T> {
  let loading: Promise<SectionView<T>> | null = null;
  const preload = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
  return Object.assign(
    lazy(async () => ({ default: await preload() })),
    { preload },
  );
}
