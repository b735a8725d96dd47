// The search detail's small chart on lightweight-charts, in a chunk of its own (Sparkline.tsx
// imports it when it first draws): a line of daily closes, no scales, no grid, no crosshair,
// nothing to drag (the library's attribution logo stays, as on the chart sections). Everything
// it made goes with the function it returns.
import { ColorType, createChart, LineSeries, type Time } from 'lightweight-charts';
import type { Sparkline } from '../../lib/sparkline';

const UP = '#22c55e';

function colours(element: HTMLElement, direction: Sparkline['direction']) {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const line = direction > 0 ? UP : direction < 0 ? read('--danger', '#ef4444') : read('--accent', '#8b5cf6');
  return { line, text: read('--text-muted', '#5c6375') };
}

export function mountSparkline(container: HTMLElement, line: Sparkline): () => void {
  const colour = colours(container, line.direction);
  const chart = createChart(container, {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: colour.text },
    grid: { vertLines: { visible: false }, horzLines: { visible: false } },
    leftPriceScale: { visible: false },
    rightPriceScale: { visible: false },
    timeScale: { visible: false, fixLeftEdge: true, fixRightEdge: true },
    crosshair: { vertLine: { visible: false, labelVisible: false }, horzLine: { visible: false, labelVisible: false } },
    handleScroll: false,
    handleScale: false,
  });
  // lightweight-charts lays its panes out in a <table>: layout, not data.
  chart.chartElement().querySelector('table')?.setAttribute('role', 'presentation');
  const series = chart.addSeries(LineSeries, {
    color: colour.line,
    lineWidth: 2,
    priceLineVisible: false,
    lastValueVisible: false,
    crosshairMarkerVisible: false,
  });
  series.setData(line.points.map((point) => ({ time: point.time as Time, value: point.value })));
  chart.timeScale().fitContent();
  // Light and dark write red (and the accent) differently: a theme change recolours the line.
  const themeWatch = new MutationObserver(() => series.applyOptions({ color: colours(container, line.direction).line }));
  themeWatch.observe(container.ownerDocument.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-color-theme'] });
  return () => {
    themeWatch.disconnect();
    chart.remove();
  };
}
