// What bench:load counts as a visor's content, as an init script of the page (it runs before
// the app's scripts on every load of a visor): the first frame in which the page shows the visor's
// title, all its `sections` section frames each with its own view (no frame still on its loading
// line while the type's chunk loads), every chart with its bars drawn (the chart root's
// data-bars, which chartCanvas.ts writes once lightweight-charts has them) and a quote board row
// with a last price (live or, offline, the cached one). The time is performance.now() of that
// frame's animation callback: milliseconds since the navigation started.

/** The window property the probe writes. */
export const CONTENT_MARK = '__visorContentAt';

export function visorContentProbe({ mark, sections }: { mark: string; sections: number }): void {
  if (!location.pathname.startsWith('/visor/')) return;
  const shown = (): boolean => {
    if (!document.querySelector('.visor-header__title')?.textContent) return false;
    if (document.querySelectorAll('.section-frame').length < sections) return false;
    if (document.querySelector('.section-frame__loading')) return false;
    for (const chart of document.querySelectorAll<HTMLElement>('.vs-chart')) if (!(Number(chart.dataset.bars) > 0)) return false;
    for (const cell of document.querySelectorAll('[role="row"][data-symbol] [data-field="last"]')) {
      const text = cell.textContent?.trim();
      if (text && text !== '—') return true;
    }
    return false;
  };
  const check = (): void => {
    if (shown()) (window as unknown as Record<string, number>)[mark] = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}
