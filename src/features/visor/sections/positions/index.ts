// The positions section type (`Posiciones`, issue 19): one entry of the visor's registry.
// Its table of positions (PositionsTable) and list of fills (FillsList) take their data as
// props, for other screens to reuse (the admin's positions, issue 20).
import { lazyView } from '../lazyView';
import type { SectionModule } from '../types';
import { defaultPositionsConfig } from './positionsConfig';

export const positionsSection: SectionModule<'positions'> = {
  type: 'positions',
  label: 'Posiciones',
  defaultTitle: 'Posiciones',
  defaultConfig: defaultPositionsConfig,
  defaultSize: { w: 8, h: 9 },
  minSize: { w: 4, h: 5 },
  View: lazyView(async () => (await import('./PositionsView')).PositionsView),
};
