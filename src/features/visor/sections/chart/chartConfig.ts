// The chart section's config as the screen reads it (issue 19): a stored config that is not
// quite today's shape still draws, and the range and interval a switch picks stay a pair the
// server can answer (an intraday interval only with a range of one or five sessions).
import { effectiveInterval, INTRADAY_RANGES, isIntradayInterval } from '../../../../lib/candles';
import { CHART_INTERVALS, CHART_RANGES, type ChartConfig, type ChartInterval, type ChartRange } from '../../../../protocol/workspace';

export const MAX_CHART_SERIES = 20;

export const DEFAULT_CHART_CONFIG: ChartConfig = { series: ['BYMA:AL30'], interval: '1d', range: '3M' };

export const RANGE_LABELS: Record<ChartRange, string> = {
  '1d': '1D',
  '5d': '5D',
  '1M': '1M',
  '3M': '3M',
  '6M': '6M',
  '1Y': '1A',
  '5Y': '5A',
  '10Y': '10A',
};

export const INTERVAL_LABELS: Record<ChartInterval, string> = { '1m': '1 min', '5m': '5 min', '15m': '15 min', '1h': '1 h', '1d': 'Diario' };

const isRange = (value: unknown): value is ChartRange => (CHART_RANGES as readonly unknown[]).includes(value);
const isInterval = (value: unknown): value is ChartInterval => (CHART_INTERVALS as readonly unknown[]).includes(value);

/** The config, with what a config of another shape lacks taken from the defaults. */
export function readChartConfig(config: Partial<ChartConfig> | undefined): ChartConfig {
  const series = Array.isArray(config?.series) ? config.series.filter((item): item is string => typeof item === 'string').slice(0, MAX_CHART_SERIES) : [];
  return {
    series,
    range: isRange(config?.range) ? config.range : DEFAULT_CHART_CONFIG.range,
    interval: isInterval(config?.interval) ? config.interval : DEFAULT_CHART_CONFIG.interval,
  };
}

/** A range picked: a long range with an intraday interval draws daily, and says so. */
export function withRange(config: ChartConfig, range: ChartRange): ChartConfig {
  return { ...config, range, interval: effectiveInterval(range, config.interval) };
}

/** An interval picked: an intraday one with a long range moves the range to five sessions. */
export function withInterval(config: ChartConfig, interval: ChartInterval): ChartConfig {
  const range = isIntradayInterval(interval) && !INTRADAY_RANGES.includes(config.range) ? '5d' : config.range;
  return { ...config, range, interval };
}
