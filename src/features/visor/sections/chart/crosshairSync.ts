// The crosshair shared by the charts of one visor (issue 19): the chart under the pointer
// says the time it shows, and every other chart of the same visor puts its crosshair there.
// Keyed by the visor's grid element, so two visores (or the /test preview) never mix, and
// a hub is forgotten with its grid.

/** Market seconds the hovered chart shows, or null when the pointer left it. */
export type CrosshairListener = (time: number | null) => void;

const hubs = new WeakMap<Element, Set<CrosshairListener>>();

/** The element that groups one visor's charts: its grid, or the document's body outside one. */
export function syncAnchor(element: Element): Element {
  return element.closest('.visor-grid') ?? element.ownerDocument.body;
}

/**
 * Joins the charts under `anchor`: `listener` hears the others' crosshair, `publish` tells
 * them this one's. `leave` must be called when the chart goes.
 */
export function joinCrosshairSync(anchor: Element, listener: CrosshairListener): { publish(time: number | null): void; leave(): void } {
  let members = hubs.get(anchor);
  if (!members) hubs.set(anchor, (members = new Set()));
  const hub = members;
  hub.add(listener);
  return {
    publish(time) {
      for (const other of hub) if (other !== listener) other(time);
    },
    leave() {
      hub.delete(listener);
      if (hub.size === 0 && hubs.get(anchor) === hub) hubs.delete(anchor);
    },
  };
}
