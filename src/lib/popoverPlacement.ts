// Where a picker popup goes (spec section 2: offset 6 px by default): below its anchor,
// or above when it does not fit below and fits better above; kept inside the viewport.
export const POPOVER_OFFSET = 6;

export interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface Placement {
  top: number;
  left: number;
  side: 'bottom' | 'top';
}

export function placePopover(
  anchor: Rect,
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  offset = POPOVER_OFFSET,
): Placement {
  const below = anchor.top + anchor.height + offset;
  const above = anchor.top - offset - size.height;
  const roomBelow = viewport.height - below;
  const roomAbove = anchor.top - offset;
  const side = roomBelow >= size.height || roomBelow >= roomAbove ? 'bottom' : 'top';
  const top = side === 'bottom' ? below : Math.max(0, above);
  const left = Math.max(0, Math.min(anchor.left, viewport.width - size.width));
  return { top, left, side };
}
