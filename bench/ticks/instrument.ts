// Runs in each bench page before its own scripts (page.addInitScript): frame times, long
// tasks, and for every change of a row's volume cell (the volume is the update's sequence
// number) the symbol, the sequence, whether the row was in the viewport (an
// IntersectionObserver on the rows), and when the frame after the change finished rendering
// (a task posted at the start of a frame runs after that frame's style, layout and paint):
// for a row in view, the frame that painted it.
// Charts (bench:visor --page charts): a chart section (an element with data-section-id whose
// chart root has data-mode) writes each series' last value into its legend
// ([data-series-index] [data-field="value"]) when it puts the tick into the series, and
// lightweight-charts draws its canvases in a later frame of its own. For every legend change
// the section, the series, the text and the frame are kept, and for every frame the sections
// whose canvases drew in it (clearRect/fillRect, as each redraw starts) and when it finished
// rendering: the last candle of a change is on screen at the end of the first frame at or after
// the change in which its chart drew.
// The same code measures the app and the naive page. It must be self-contained: Playwright
// sends its source text to the page.
// With `probe` false nothing of the above is installed (no frame loop, no observers, no canvas
// hooks): a run for the main thread's figure alone. The probe's own cost is not the app's — a
// callback every frame keeps the main thread making 60 frames a second, and its observers run
// on every changed cell (bench:visor, one tab: 1.5–2.5 points of a core).
export interface PageSamples {
  frameIntervals: number[];
  longTasks: number;
  longTaskMs: number;
  /** Volume cells changed: symbol updates that reached the screen. */
  applied: number;
  symbols: string[];
  sequences: number[];
  /** Epoch ms when the frame showing the change had rendered (NaN if it never did). */
  paintedAt: number[];
  /** Whether the row was in the viewport when its text changed (only those are painted). */
  inView: boolean[];
  seconds: number;
  /** Charts: legend value changes (section id, series index, text, frame number, epoch ms). */
  chartChanges: { section: string; series: number; text: string; frame: number; at: number }[];
  /** Charts: by section id, the frame numbers in which its canvases drew, ascending. */
  chartDraws: Record<string, number[]>;
  /** Epoch ms when frame n had rendered (index n; 0 when not seen). */
  frameEnds: number[];
}

export function instrumentPage(probe = true): void {
  const w = window as unknown as { __bench: { start(): void; stop(): PageSamples } };
  if (!probe) {
    let began = 0;
    w.__bench = {
      start() {
        began = performance.now();
      },
      stop() {
        const seconds = (performance.now() - began) / 1000;
        const none = { frameIntervals: [], longTasks: 0, longTaskMs: 0, applied: 0, symbols: [], sequences: [], paintedAt: [], inView: [] };
        return { ...none, seconds, chartChanges: [], chartDraws: {}, frameEnds: [] };
      },
    };
    return;
  }
  // Date.now(), not timeOrigin + now(): the send times are the feed server's wall clock, and
  // timeOrigin + now() drifts from it by seconds in a long-lived browser.
  const epoch = () => Date.now();
  const requestFrame = window.requestAnimationFrame.bind(window);
  let running = false;
  let startedAt = 0;
  let lastFrame = 0;
  let frameOpen = false;
  let thisFrame: number[] = [];
  let nextFrame: number[] = [];
  const frameIntervals: number[] = [];
  const symbols: string[] = [];
  const sequences: number[] = [];
  const paintedAt: number[] = [];
  const inView: boolean[] = [];
  const visible = new Set<string>();
  const viewport = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const symbol = (entry.target as HTMLElement).dataset.symbol;
      if (!symbol) continue;
      if (entry.isIntersecting) visible.add(symbol);
      else visible.delete(symbol);
    }
  });
  let applied = 0;
  let longTasks = 0;
  let longTaskMs = 0;

  let frameNumber = 0;
  const frameEnds: number[] = [];
  const chartChanges: PageSamples['chartChanges'] = [];
  const chartDraws: Record<string, number[]> = {};
  /** The frame whose rendering shows what changes now: this one inside a frame's callbacks, else the next. */
  const frameOfChange = () => (frameOpen ? frameNumber : frameNumber + 1);

  const afterRender = new MessageChannel();
  afterRender.port1.onmessage = (event: MessageEvent<number>) => {
    const at = epoch();
    if (running) frameEnds[event.data] = at;
    for (const index of thisFrame) paintedAt[index] = at;
    thisFrame = [];
    frameOpen = false;
  };
  // Registered first and again at the start of each frame, so it runs before any other
  // callback of the frame (the app's ticks are applied in a later callback of the same frame).
  const frame = (time: number) => {
    if (running && lastFrame > 0) frameIntervals.push(time - lastFrame);
    lastFrame = time;
    frameOpen = true;
    frameNumber += 1;
    if (nextFrame.length > 0) {
      thisFrame.push(...nextFrame);
      nextFrame = [];
    }
    afterRender.port2.postMessage(frameNumber);
    requestFrame(frame);
  };
  requestFrame(frame);

  // A chart canvas drawing: lightweight-charts starts each redraw of a canvas by clearing or
  // filling it. The section of each canvas is looked up once.
  const sectionOfCanvas = new WeakMap<HTMLCanvasElement, string | null>();
  const noteDraw = (canvas: HTMLCanvasElement | OffscreenCanvas) => {
    if (!running || !(canvas instanceof HTMLCanvasElement)) return;
    let section = sectionOfCanvas.get(canvas);
    if (section === undefined) {
      const root = canvas.closest('[data-mode]');
      section = root?.closest('[data-section-id]')?.getAttribute('data-section-id') ?? null;
      sectionOfCanvas.set(canvas, section);
    }
    if (section == null) return;
    const frames = (chartDraws[section] ??= []);
    const at = frameOfChange();
    if (frames[frames.length - 1] !== at) frames.push(at);
  };
  const context2d = CanvasRenderingContext2D.prototype;
  for (const name of ['clearRect', 'fillRect'] as const) {
    const original = context2d[name];
    context2d[name] = function (this: CanvasRenderingContext2D, x: number, y: number, w: number, h: number) {
      noteDraw(this.canvas);
      original.call(this, x, y, w, h);
    };
  }
  const legendObserver = new MutationObserver((records) => {
    for (const record of records) {
      const cell = (record.type === 'characterData' ? record.target.parentElement : (record.target as Element))?.closest<HTMLElement>('[data-field="value"]');
      const row = cell?.closest<HTMLElement>('[data-series-index]');
      const section = row?.closest('[data-section-id]')?.getAttribute('data-section-id');
      if (!cell || !row || !section) continue;
      chartChanges.push({ section, series: Number(row.dataset.seriesIndex), text: cell.textContent ?? '', frame: frameOfChange(), at: epoch() });
    }
  });

  const rowSelector = '[role="row"][data-symbol]';
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      // Rows that mount during the run (a virtual list's) are watched for the viewport too.
      for (const added of record.addedNodes) {
        if (!(added instanceof Element)) continue;
        if (added.matches(rowSelector)) viewport.observe(added);
        for (const row of added.querySelectorAll(rowSelector)) viewport.observe(row);
      }
      // The changed node is the volume's text node, or (React replacing the text) its cell or
      // an element inside it.
      const changed = record.type === 'characterData' ? record.target.parentElement : (record.target as Element);
      const cell = changed?.closest<HTMLElement>('[data-field]');
      if (!cell || cell.dataset.field !== 'volume') continue;
      const symbol = cell.closest<HTMLElement>('[data-symbol]')?.dataset.symbol;
      const sequence = Number((cell.textContent ?? '').replace(/\D/g, ''));
      if (!symbol || !sequence) continue;
      applied += 1;
      const index = symbols.push(symbol) - 1;
      sequences.push(sequence);
      paintedAt.push(Number.NaN);
      inView.push(visible.has(symbol));
      (frameOpen ? thisFrame : nextFrame).push(index);
    }
  });
  const longTaskObserver = new PerformanceObserver((list) => {
    if (!running) return;
    for (const entry of list.getEntries()) {
      longTasks += 1;
      longTaskMs += entry.duration;
    }
  });

  w.__bench = {
    start() {
      running = true;
      startedAt = performance.now();
      lastFrame = 0;
      // Every table (a visor may have several sections): only volume cells of symbol rows count.
      for (const table of document.querySelectorAll('[role="table"]')) observer.observe(table, { subtree: true, characterData: true, childList: true });
      for (const row of document.querySelectorAll(rowSelector)) viewport.observe(row);
      for (const legend of document.querySelectorAll('[data-mode] [data-series-index] [data-field="value"]'))
        legendObserver.observe(legend, { subtree: true, characterData: true, childList: true });
      longTaskObserver.observe({ type: 'longtask' });
    },
    stop() {
      running = false;
      observer.disconnect();
      legendObserver.disconnect();
      longTaskObserver.disconnect();
      viewport.disconnect();
      return {
        frameIntervals,
        longTasks,
        longTaskMs,
        applied,
        symbols,
        sequences,
        paintedAt,
        inView,
        seconds: (performance.now() - startedAt) / 1000,
        chartChanges,
        chartDraws,
        frameEnds,
      };
    },
  };
}
