import { describe, expect, it } from 'vitest';
import { placePopover, POPOVER_OFFSET } from './popoverPlacement';

const viewport = { width: 1000, height: 800 };
const size = { width: 300, height: 400 };

describe('placePopover', () => {
  it('goes 6 px below its anchor when it fits', () => {
    expect(POPOVER_OFFSET).toBe(6);
    expect(placePopover({ top: 100, left: 50, width: 40, height: 30 }, size, viewport)).toEqual({ top: 136, left: 50, side: 'bottom' });
  });
  it('goes 6 px above when there is no room below and more above', () => {
    expect(placePopover({ top: 700, left: 50, width: 40, height: 30 }, size, viewport)).toEqual({ top: 294, left: 50, side: 'top' });
  });
  it('stays below when neither side fits but below has more room', () => {
    expect(placePopover({ top: 200, left: 50, width: 40, height: 30 }, { width: 300, height: 700 }, viewport).side).toBe('bottom');
  });
  it('keeps inside the viewport horizontally', () => {
    expect(placePopover({ top: 100, left: 900, width: 40, height: 30 }, size, viewport).left).toBe(700);
    expect(placePopover({ top: 100, left: -20, width: 40, height: 30 }, size, viewport).left).toBe(0);
  });
  it('takes another offset', () => {
    expect(placePopover({ top: 100, left: 50, width: 40, height: 30 }, size, viewport, 10).top).toBe(140);
  });
});
