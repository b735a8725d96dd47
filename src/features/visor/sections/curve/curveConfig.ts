// The curve section's config as the view reads it: a config stored before a field existed
// (the chart's rate, issue 19) or written by hand gets that field's default.
import type { CurveConfig } from '../../../../protocol/workspace';
import type { ConfigOf } from '../types';

/** A new curve: the dollar future against the A3500 spot (`DLR/SPOT`), calendar days, TNA. */
export const DEFAULT_CURVE: CurveConfig = { product: 'DLR', spot: 'DLR/SPOT', dayCount: 'calendar', rate: 'tna' };

/** The config as stored, with the defaults of the fields it lacks. */
export function readCurveConfig(config: Partial<ConfigOf<'curve'>> | undefined): CurveConfig {
  return {
    product: typeof config?.product === 'string' && config.product.trim() ? config.product : DEFAULT_CURVE.product,
    spot: typeof config?.spot === 'string' ? config.spot : DEFAULT_CURVE.spot,
    dayCount: config?.dayCount === 'weekdays' ? 'weekdays' : 'calendar',
    rate: config?.rate === 'tea' ? 'tea' : 'tna',
  };
}
