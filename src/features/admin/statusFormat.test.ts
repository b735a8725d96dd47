import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, formatRate, formatWhen, shortProcess } from './statusFormat';

describe('the admin status formats', () => {
  it('writes a duration in its two largest units', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(-5000)).toBe('0 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(250_000)).toBe('4 min 10 s');
    expect(formatDuration(2 * 3600_000 + 5 * 60_000 + 7000)).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3600_000 + 1)).toBe('3 d 4 h');
  });

  it('writes times in Buenos Aires, the time alone on the same market day', () => {
    // 01:30 UTC on the 28th is 22:30 of the 27th in Buenos Aires.
    const late = Date.UTC(2026, 10, 28, 1, 30, 5);
    expect(formatDateTime(late)).toBe('27/11/2026 22:30:05');
    expect(formatDateTime(new Date(late).toISOString())).toBe('27/11/2026 22:30:05');
    // 12:00 of the 27th in Buenos Aires: the same market day, though not the same UTC day.
    expect(formatWhen(late, Date.UTC(2026, 10, 27, 15))).toBe('22:30:05');
    // 01:00 of the 28th in Buenos Aires: another market day, though the same UTC day.
    expect(formatWhen(late, Date.UTC(2026, 10, 28, 4))).toBe('27/11/2026 22:30:05');
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
