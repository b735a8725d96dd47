import { describe, expect, it } from 'vitest';
import { createFlasher, FLASH_MS, FLASH_PERIOD_MS, type Lightable } from './flasher';

/** A clock and a timer queue the test moves by hand. */
function manualTime() {
  let time = 1000;
  const timers: { at: number; run: () => void }[] = [];
  return {
    now: () => time,
    later: (run: () => void, ms: number) => void timers.push({ at: time + ms, run }),
    pending: () => timers.length,
    /** Moves the clock without running the timers due. */
    jump(ms: number) {
      time += ms;
    },
    advance(ms: number) {
      const until = time + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > until) break;
        timers.shift();
        time = next.at;
        next.run();
      }
      time = until;
    },
  };
}

const cell = (): Lightable => ({ dataset: {} });

describe('createFlasher', () => {
  it('lights a cell and puts it out after FLASH_MS, with one timer for the cells lit together', () => {
    const clock = manualTime();
    const flasher = createFlasher(clock.now, clock.later);
    const a = cell();
    const b = cell();
    flasher.flash(a);
    clock.advance(10);
    flasher.flash(b);
    expect(a.dataset.flash).toBe('');
    expect(b.dataset.flash).toBe('');
    expect(clock.pending()).toBe(1);
    clock.advance(FLASH_MS - 10);
    // Both go dark in one pass: b's time is up within the sweep's slack.
    expect(a.dataset.flash).toBeUndefined();
    expect(b.dataset.flash).toBeUndefined();
    expect(flasher.lit).toBe(0);
    expect(clock.pending()).toBe(0);
  });

  it('does not light a cell again before FLASH_PERIOD_MS, then does', () => {
    const clock = manualTime();
    const flasher = createFlasher(clock.now, clock.later);
    const a = cell();
    flasher.flash(a);
    clock.advance(FLASH_MS);
    expect(a.dataset.flash).toBeUndefined();
    flasher.flash(a);
    expect(a.dataset.flash).toBeUndefined();
    clock.advance(FLASH_PERIOD_MS - FLASH_MS);
    flasher.flash(a);
    expect(a.dataset.flash).toBe('');
    expect(flasher.lit).toBe(1);
  });

  it('keeps sweeping while cells lit later are still lit', () => {
    const clock = manualTime();
    const flasher = createFlasher(clock.now, clock.later);
    const a = cell();
    const b = cell();
    flasher.flash(a);
    clock.advance(200);
    flasher.flash(b);
    clock.advance(FLASH_MS - 200);
    expect(a.dataset.flash).toBeUndefined();
    expect(b.dataset.flash).toBe('');
    clock.advance(200);
    expect(b.dataset.flash).toBeUndefined();
    expect(clock.pending()).toBe(0);
  });

  it('puts out the cells whose time is up when the next cell is lit, before the timer', () => {
    const clock = manualTime();
    const flasher = createFlasher(clock.now, clock.later);
    const a = cell();
    const b = cell();
    flasher.flash(a);
    // The timer has not run (the clock is moved without it): the next flash puts a out.
    clock.advance(0);
    const timers = clock.pending();
    clock.jump(FLASH_MS);
    flasher.flash(b);
    expect(a.dataset.flash).toBeUndefined();
    expect(b.dataset.flash).toBe('');
    expect(flasher.lit).toBe(1);
    expect(clock.pending()).toBe(timers);
  });
});
