import { describe, expect, it } from 'vitest';
import type { Fill } from '../protocol/broker';
import { fillTimeText, newestFirst, transactTimeMs } from './fills';

const fill = (execId: string, transactTime: string) => ({ execId, transactTime }) as Fill;

describe('fills', () => {
  it('reads Primary transactTime in Buenos Aires time', () => {
    expect(transactTimeMs('20261122-13:11:04.214-0300')).toBe(Date.parse('2026-11-22T16:11:04.214Z'));
    expect(transactTimeMs('20261122-13:11:04')).toBe(Date.parse('2026-11-22T16:11:04Z'));
    expect(transactTimeMs('ayer')).toBeNull();
    expect(fillTimeText('20261122-13:11:04.214-0300')).toBe('22/11 13:11:04');
    expect(fillTimeText('')).toBe('');
  });

  it('writes a fill time in market time when the broker wrote another offset', () => {
    // 02:30 UTC on the 23rd is 23:30 of the 22nd in Buenos Aires.
    expect(fillTimeText('20261123-02:30:00.000+0000')).toBe('22/11 23:30:00');
    expect(fillTimeText('20261123-11:30:00+09:00')).toBe('22/11 23:30:00');
    expect(fillTimeText('20261122-23:30:00')).toBe('22/11 23:30:00');
  });

  it('orders newest first, the later listed first among equal times', () => {
    const list = [
      fill('a', '20261122-10:00:00.000-0300'),
      fill('b', '20261122-12:00:00.000-0300'),
      fill('c', '20261122-12:00:00.000-0300'),
      fill('d', '20261122-11:00:00.000-0300'),
      fill('e', ''),
    ];
    expect(newestFirst(list).map((item) => item.execId)).toEqual(['c', 'b', 'd', 'a', 'e']);
  });
});
