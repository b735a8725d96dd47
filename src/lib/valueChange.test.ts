import { describe, expect, it } from 'vitest';
import { describeChange, formatChange, formatUnitValue } from './valueChange';

describe('the change of a value, read by what it is', () => {
  it('a price moves in percent of itself', () => {
    const change = formatChange('price', 1518.2, 1500.2);
    expect(change).toMatchObject({ measure: '%', basisPoints: null, text: '+1,20 %' });
    expect(change!.delta).toBeCloseTo(18, 9);
    expect(change!.amount).toBeCloseTo(1.19984, 4);
    expect(formatChange('price', 990, 1000)!.text).toBe('-1,00 %');
  });

  it('a rate in percent moves in percentage points, never in percent of itself', () => {
    // The demo's implied devaluation: 1,30 % at the close, 0,0889 % now read -93,16 % as a percent of itself.
    const change = formatChange('rate', 0.0889, 1.3);
    expect(change!.text).toBe('-1,21 pp');
    expect(change!.amount).toBeCloseTo(-1.2111, 9);
    expect(change!.basisPoints).toBeCloseTo(-121.11, 6);
    expect(describeChange(change!)).toBe('-1,21 pp (-121 pb)');
    expect(formatChange('rate', 5.58, 5.23)!.text).toBe('+0,35 pp');
  });

  it('a ratio moves by its premium over 1, in percentage points', () => {
    // The canje from 1,0523 (5,23 % premium) to 1,0558 (5,58 %).
    const change = formatChange('ratio', 1.0558, 1.0523);
    expect(change).toMatchObject({ measure: 'pp', text: '+0,35 pp' });
    expect(change!.delta).toBeCloseTo(0.0035, 12);
    expect(change!.basisPoints).toBeCloseTo(35, 9);
  });

  it('a rate or a ratio has a change from zero or below; a price does not', () => {
    expect(formatChange('rate', 0.5, 0)!.text).toBe('+0,50 pp');
    expect(formatChange('rate', -0.2, -0.5)!.text).toBe('+0,30 pp');
    expect(formatChange('price', 10, 0)).toBeNull();
    expect(formatChange('price', -10, -20)).toBeNull();
  });

  it('says nothing without both numbers', () => {
    expect(formatChange('price', null, 100)).toBeNull();
    expect(formatChange('rate', 1, undefined)).toBeNull();
    expect(formatChange('ratio', Number.NaN, 1)).toBeNull();
    expect(formatChange('rate', 1, Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('writes a rate with % and two decimals, a price and a ratio with their decimals', () => {
    expect(formatUnitValue('rate', 1.30457)).toBe('1,30 %');
    expect(formatUnitValue('ratio', 1.05234)).toBe('1,0523');
    expect(formatUnitValue('price', 1234.5, 2)).toBe('1.234,50');
  });
});
