import { describe, expect, it, vi } from 'vitest';
import { createEventLog, EVENT_LOG_CAPACITY } from './eventLog';

function quietConsole() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

describe('event log', () => {
  it('keeps the last 200 entries, oldest first, dropping the oldest beyond that', () => {
    let clock = 1000;
    const log = createEventLog({ console: quietConsole(), now: () => clock++ });
    for (let i = 0; i < 250; i++) log.info(`mensaje ${i}`);
    const entries = log.entries();
    expect(EVENT_LOG_CAPACITY).toBe(200);
    expect(entries).toHaveLength(200);
    expect(entries[0]).toEqual({ time: 1050, level: 'info', text: 'mensaje 50' });
    expect(entries[199]).toEqual({ time: 1249, level: 'info', text: 'mensaje 249' });
  });

  it('keeps everything while under capacity', () => {
    const log = createEventLog({ console: quietConsole(), capacity: 3 });
    log.info('a');
    log.warn('b');
    expect(log.entries().map((entry) => [entry.level, entry.text])).toEqual([
      ['info', 'a'],
      ['warn', 'b'],
    ]);
    log.error('c');
    log.info('d');
    expect(log.entries().map((entry) => entry.text)).toEqual(['b', 'c', 'd']);
  });

  it('writes each entry to the console at its level, the detail only there', () => {
    const out = quietConsole();
    const log = createEventLog({ console: out });
    const failure = new Error('boom');
    log.error('Posiciones: error', failure);
    log.warn('aviso');
    expect(out.error).toHaveBeenCalledWith('Posiciones: error', failure);
    expect(out.warn).toHaveBeenCalledWith('aviso');
    expect(log.entries().map((entry) => entry.text)).toEqual(['Posiciones: error', 'aviso']);
  });

  it('hands out copies, so a reader cannot change the log', () => {
    const log = createEventLog({ console: quietConsole() });
    log.info('original');
    log.entries()[0]!.text = 'cambiado';
    log.entries().pop();
    expect(log.entries().map((entry) => entry.text)).toEqual(['original']);
  });

  it('tells listeners of each new entry until they unsubscribe', () => {
    const log = createEventLog({ console: quietConsole(), now: () => 7 });
    const seen: string[] = [];
    const stop = log.onEntry((entry) => seen.push(`${entry.level}:${entry.text}`));
    log.info('uno');
    stop();
    log.info('dos');
    expect(seen).toEqual(['info:uno']);
  });
});
