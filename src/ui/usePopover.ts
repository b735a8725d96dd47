// A picker popup anchored to a button: placed with placePopover (6 px offset), closed by a
// click outside (spec section 2) or by Escape, which gives the focus back to the button and
// does not reach an enclosing dialog.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { placePopover, type Placement } from '../lib/popoverPlacement';

export function usePopover<Anchor extends HTMLElement = HTMLButtonElement>() {
  const [open, setOpen] = useState(false);
  const [placement, setPlacement] = useState<Placement | null>(null);
  const anchorRef = useRef<Anchor>(null);
  const popoverRef = useRef<HTMLDivElement>(null);

  const close = useCallback((refocus = false) => {
    setOpen(false);
    setPlacement(null);
    if (refocus) anchorRef.current?.focus();
  }, []);

  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const anchor = anchorRef.current?.getBoundingClientRect();
      const popover = popoverRef.current;
      if (!anchor || !popover) return;
      setPlacement(placePopover(anchor, { width: popover.offsetWidth, height: popover.offsetHeight }, { width: window.innerWidth, height: window.innerHeight }));
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (target && (popoverRef.current?.contains(target) || anchorRef.current?.contains(target))) return;
      close();
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [open, close]);

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

  return {
    open,
    toggle: () => (open ? close() : setOpen(true)),
    close,
    anchorRef,
    popoverRef,
    onPopoverKeyDown,
    /** Fixed position once measured; hidden (but laid out) for the first measurement. */
    popoverStyle: placement
      ? ({ position: 'fixed', top: placement.top, left: placement.left } as const)
      : ({ position: 'fixed', top: 0, left: 0, visibility: 'hidden' } as const),
  };
}
