// A picker popup anchored to a button: placed with placePopover (6 px offset), closed by a
// click outside (spec section 2) or by Escape, which gives the focus back to the button and
// does not reach an enclosing dialog. The two elements are held in state through callback
// refs (not ref objects), so rendering never reads a ref and placement runs once the popup exists.
import { useCallback, useEffect, useLayoutEffect, useState, type CSSProperties, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { placePopover, type Placement } from '../lib/popoverPlacement';

export function usePopover<Anchor extends HTMLElement = HTMLButtonElement>() {
  const [open, setOpen] = useState(false);
  const [placement, setPlacement] = useState<Placement | null>(null);
  const [anchor, setAnchor] = useState<Anchor | null>(null);
  const [popover, setPopover] = useState<HTMLDivElement | null>(null);

  const close = useCallback(
    (refocus = false) => {
      setOpen(false);
      setPlacement(null);
      if (refocus) anchor?.focus();
    },
    [anchor],
  );

  useLayoutEffect(() => {
    if (!open || !anchor || !popover) return;
    const place = () => {
      const box = anchor.getBoundingClientRect();
      setPlacement(placePopover(box, { width: popover.offsetWidth, height: popover.offsetHeight }, { width: window.innerWidth, height: window.innerHeight }));
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [open, anchor, popover]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (target && (popover?.contains(target) || anchor?.contains(target))) return;
      close();
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [open, close, anchor, popover]);

  const onPopoverKeyDown = useCallback(
    (event: ReactKeyboardEvent) => {
      if (event.key !== 'Escape') return;
      // The popup closes, not the dialog around it.
      event.preventDefault();
      event.stopPropagation();
      event.nativeEvent.stopImmediatePropagation();
      close(true);
    },
    [close],
  );

  const popup: PopupBinding = {
    open,
    attach: setPopover,
    onKeyDown: onPopoverKeyDown,
    style: placement
      ? ({ position: 'fixed', top: placement.top, left: placement.left } as const)
      : ({ position: 'fixed', top: 0, left: 0, visibility: 'hidden' } as const),
  };
  return {
    open,
    toggle: () => (open ? close() : setOpen(true)),
    close,
    /** Callback ref for the button that opens the popup: `ref={attachAnchor}`. */
    attachAnchor: setAnchor,
    popup,
  };
}

/** What the popup element takes: `ref={attach}`, its style and its key handler. */
export interface PopupBinding {
  open: boolean;
  /** Callback ref of the popup element. */
  attach: (element: HTMLDivElement | null) => void;
  /** Fixed position once measured; hidden (but laid out) for the first measurement. */
  style: CSSProperties;
  onKeyDown: (event: ReactKeyboardEvent) => void;
}
