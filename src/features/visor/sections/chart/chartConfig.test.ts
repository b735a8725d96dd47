import { describe, expect, it } from 'vitest';
import { ChartConfig } from '../../../../protocol/workspace';
import { DEFAULT_CHART_CONFIG, readChartConfig, withInterval, withRange } from './chartConfig';

describe('chart config', () => {
  it('a config stored before this section existed still loads, and the default is valid', () => {
    const stored = { series: ['DLR/DIC26', 'BYMA:AL30 / BYMA:AL30D'], interval: '1h', range: '5d' };
    expect(ChartConfig.parse(stored)).toEqual(stored);
    expect(ChartConfig.safeParse(DEFAULT_CHART_CONFIG).success).toBe(true);
  });

  it('reads what it can of a config of another shape', () => {
    expect(readChartConfig({ series: ['BYMA:AL30', 3 as unknown as string], range: 'x' as never })).toEqual({
      series: ['BYMA:AL30'],
      range: '3M',
      interval: '1d',
    });
    expect(readChartConfig(undefined).series).toEqual([]);
  });

  it('keeps range and interval a pair the server answers', () => {
    const base: ChartConfig = { series: ['BYMA:AL30'], range: '3M', interval: '1d' };
    expect(withInterval(base, '5m')).toEqual({ ...base, range: '5d', interval: '5m' });
    expect(withRange({ ...base, range: '5d', interval: '15m' }, '1Y')).toEqual({ ...base, range: '1Y', interval: '1d' });
    expect(withRange({ ...base, range: '5d', interval: '15m' }, '1d')).toEqual({ ...base, range: '1d', interval: '15m' });
  });
});
