import { describe, expect, it } from 'vitest';
import { formatDuration, formatRate, shortProcess } from './statusFormat';

describe('the admin status formats', () => {
  it('writes a duration in its two largest units', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(-5000)).toBe('0 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(250_000)).toBe('4 min 10 s');
    expect(formatDuration(2 * 3600_000 + 5 * 60_000 + 7000)).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3600_000 + 1)).toBe('3 d 4 h');
  });

  it('writes ticks per second the Spanish way, one decimal at most', () => {
    expect(formatRate(50.24)).toBe('50,2');
    expect(formatRate(1234.56)).toBe('1.234,6');
    expect(formatRate(0)).toBe('0');
  });

  it('shortens a process id to its host and pid', () => {
    expect(shortProcess('vm:30030:ab12cd34')).toBe('vm:30030');
    expect(shortProcess('solo')).toBe('solo');
    expect(shortProcess(null)).toBe('ninguno');
  });
});
