// The chart section type (`Gráfico`, issue 19): one entry of the visor's registry.
import { lazyView } from '../lazyView';
import type { SectionModule } from '../types';
import { DEFAULT_CHART_CONFIG } from './chartConfig';

export const chartSection: SectionModule<'chart'> = {
  type: 'chart',
  label: 'Gráfico',
  defaultTitle: 'Gráfico',
  defaultConfig: () => ({ ...DEFAULT_CHART_CONFIG, series: [...DEFAULT_CHART_CONFIG.series] }),
  defaultSize: { w: 6, h: 8 },
  minSize: { w: 3, h: 5 },
  View: lazyView(async () => (await import('./ChartView')).ChartView),
};
