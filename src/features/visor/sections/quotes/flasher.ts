// The flash of changed numbers on the quote boards of a page (issue 18): a cell is lit (its
// `data-flash` attribute set, which the stylesheet paints) for FLASH_MS and one timer puts out
// every cell whose time is up, together. Not a Web Animation: one per cell made each flashing
// cell a compositor layer, and re-layering the page at every frame of ticks cost more main
// thread than everything else the board does (bench:visor).

/** A cell as the flasher needs it (an HTMLElement). */
export interface Lightable {
  readonly dataset: { [name: string]: string | undefined };
}

/** How long a changed number stays lit. */
export const FLASH_MS = 300;
/** The shortest time from one flash of a cell to its next: a number that changes every frame blinks instead of glowing. */
export const FLASH_PERIOD_MS = 600;
/** Cells due to go dark this close together are put out in one pass (one style and paint, not one per cell). */
const SWEEP_SLACK_MS = 50;

export interface Flasher {
  /** Lights `node` (sets `data-flash`) unless it is lit or was lit less than FLASH_PERIOD_MS ago. */
  flash(node: Lightable): void;
  /** How many cells are lit now. */
  readonly lit: number;
}

/**
 * The flashes of every board of the page. Cells whose time is up are put out by the next flash
 * (in the frame that writes the next ticks: no frame of its own), or by one timer when no tick
 * comes.
 */
export function createFlasher(
  now: () => number = () => performance.now(),
  later: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms),
): Flasher {
  const lit = new Map<Lightable, number>();
  const litAt = new WeakMap<Lightable, number>();
  /** When the first lit cell is due to go dark. */
  let nextDue = Number.POSITIVE_INFINITY;
  let timing = false;
  const putOut = (time: number) => {
    nextDue = Number.POSITIVE_INFINITY;
    for (const [node, until] of lit) {
      if (until <= time + SWEEP_SLACK_MS) {
        delete node.dataset.flash;
        lit.delete(node);
      } else nextDue = Math.min(nextDue, until);
    }
  };
  const timer = () => {
    const time = now();
    putOut(time);
    timing = lit.size > 0;
    if (timing) later(timer, nextDue - time);
  };
  return {
    flash(node) {
      const time = now();
      if (time + SWEEP_SLACK_MS >= nextDue) putOut(time);
      if (lit.has(node) || time - (litAt.get(node) ?? Number.NEGATIVE_INFINITY) < FLASH_PERIOD_MS) return;
      node.dataset.flash = '';
      lit.set(node, time + FLASH_MS);
      litAt.set(node, time);
      nextDue = Math.min(nextDue, time + FLASH_MS);
      if (!timing) {
        timing = true;
        later(timer, FLASH_MS);
      }
    },
    get lit() {
      return lit.size;
    },
  };
}
