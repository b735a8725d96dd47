// The futures curve section type (`Curva`, issue 19): one entry of the visor's registry.
import { lazyView } from '../lazyView';
import type { SectionModule } from '../types';
import { DEFAULT_CURVE } from './curveConfig';

export const curveSection: SectionModule<'curve'> = {
  type: 'curve',
  label: 'Curva',
  defaultTitle: 'Curva',
  defaultConfig: () => ({ ...DEFAULT_CURVE }),
  defaultSize: { w: 8, h: 10 },
  minSize: { w: 4, h: 6 },
  View: lazyView(async () => (await import('./CurveView')).CurveView),
};
