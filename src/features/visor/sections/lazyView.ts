// A section type's body as a chunk of its own (issue 21): the registry's entry (label, sizes,
// default config) is small and loaded with the visor screen, while the view, with its libraries
// (lightweight-charts for charts and curves), loads the first time a section of that type is
// drawn, or earlier through `preload` (the visor route starts every type's when a visor is about
// to open: registry.ts, preloadSectionViews). Meanwhile the section says it is loading.
//
// Not React.lazy: a lazy component whose import failed once (offline, a deploy that removed
// the chunk) throws that error on every later render, up to the route's error page. Here a
// failure stays inside its section, which says so, and the chunk is asked for again by its
// button or as soon as the connection returns.
import { createElement, useEffect, useState, type ComponentType } from 'react';
import { useOnline } from '../../../data/offline';
import type { SectionType } from '../../../protocol/workspace';
import type { SectionViewProps } from './types';

export type SectionView<T extends SectionType> = ComponentType<SectionViewProps<T>>;

/** A view loaded on first render, or by `preload` before (once; again after a failure). */
export type LazySectionView<T extends SectionType> = SectionView<T> & { preload: () => Promise<SectionView<T>> };

/** Inside the frame while the section type's view loads (its chunk, the first time the type is drawn). */
export const LOADING_SECTION = 'Cargando…';

export const SECTION_LOAD_FAILED = {
  online: 'No se pudo cargar esta sección.',
  offline: 'Sin conexión: esta sección se cargará al volver la conexión.',
} as const;

export function lazyView<T extends SectionType>(load: () => Promise<SectionView<T>>): LazySectionView<T> {
  let loaded: SectionView<T> | null = null;
  let loading: Promise<SectionView<T>> | null = null;
  const preload = (): Promise<SectionView<T>> => {
    if (loaded) return Promise.resolve(loaded);
    return (loading ??= load().then(
      (view) => (loaded = view),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  };

  function LazyView(props: SectionViewProps<T>) {
    const [view, setView] = useState<SectionView<T> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    const [attempt, setAttempt] = useState(0);
    const online = useOnline();

    useEffect(() => {
      if (view) return;
      let current = true;
      preload().then(
        (next) => current && setView(() => next),
        () => current && setFailed(true),
      );
      return () => {
        current = false;
      };
    }, [view, attempt]);

    // The connection coming back after a failure: asked for again, without a click.
    const [wasOnline, setWasOnline] = useState(online);
    if (online !== wasOnline) {
      setWasOnline(online);
      if (online && failed) {
        setFailed(false);
        setAttempt((n) => n + 1);
      }
    }

    if (view) return createElement(view, props);
    if (!failed) return createElement('p', { className: 'muted section-frame__loading', role: 'status' }, LOADING_SECTION);
    return createElement(
      'div',
      { className: 'section-frame__load-failed', role: 'alert' },
      createElement('p', { className: 'muted' }, online ? SECTION_LOAD_FAILED.online : SECTION_LOAD_FAILED.offline),
      online &&
        createElement(
          'button',
          {
            type: 'button',
            className: 'button',
            onClick: () => {
              setFailed(false);
              setAttempt((n) => n + 1);
            },
          },
          'Reintentar',
        ),
    );
  }

  return Object.assign(LazyView, { preload });
}
