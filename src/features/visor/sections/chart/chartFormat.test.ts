import { describe, expect, it } from 'vitest';
import { formatLegendChange } from './chartFormat';

describe("the chart legend's change", () => {
  it('reads a price in its own terms and percent, a rate or ratio series in points', () => {
    expect(formatLegendChange(1515, 15, 1)).toBe('+15,00 (+1,00%)');
    expect(formatLegendChange(1.21, -1.3, -51.8, 'rate')).toBe('-1,30 pp');
    expect(formatLegendChange(1.0558, 0.0035, 0.33, 'ratio')).toBe('+0,35 pp');
    expect(formatLegendChange(1, null, null, 'rate')).toBe(' ');
  });
});
