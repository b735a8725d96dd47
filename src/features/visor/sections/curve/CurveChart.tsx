// The curve's chart: the chosen rate (TNA or TEA) of each month by its days to expiry, with
// lightweight-charts' yield curve chart. Its horizontal scale is a number of days spaced in
// proportion (a time scale spaces points evenly by index, which would draw the one-month gap
// between the first two months as wide as a quarter between two far ones), labelled with
// the expiry dates. Created once in an effect and removed in its cleanup; each batch of ticks
// moves the points it changed (update), a new set of months replaces them (setData). It
// follows the page's light and dark themes and resizes with its grid cell (autoSize).
import { ColorType, createYieldCurveChart, LineSeries, LineStyle, type IYieldCurveChartApi, type ISeriesApi, type LineData } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { formatNumber } from '../../../../lib/numberFormat';

export interface CurvePoint {
  /** Calendar days to expiry. */
  days: number;
  /** The rate, in percent. */
  value: number;
  /** The month code, for the axis and the crosshair. */
  month: string;
}

type CurveSeries = ISeriesApi<'Line', number>;

function themeColors(element: Element) {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--text-muted', '#9aa1b2'),
    border: read('--border', '#2a2f3d'),
    surface: read('--surface', '#171a23'),
    accent: read('--accent', '#8b5cf6'),
  };
}

function applyTheme(chart: IYieldCurveChartApi, series: CurveSeries, element: Element): void {
  const colors = themeColors(element);
  chart.applyOptions({
    layout: { background: { type: ColorType.Solid, color: colors.surface }, textColor: colors.text },
    grid: { vertLines: { color: colors.border }, horzLines: { color: colors.border } },
    leftPriceScale: { borderColor: colors.border },
    rightPriceScale: { borderColor: colors.border },
    timeScale: { borderColor: colors.border },
  });
  series.applyOptions({ color: colors.accent });
}

interface CurveChartProps {
  points: readonly CurvePoint[];
  /** What the points are: `TNA` or `TEA`. */
  rateLabel: string;
  /** Today (UTC date): an axis day is today plus that many days. */
  today: Date;
}

export function CurveChart({ points, rateLabel, today }: CurveChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<{ chart: IYieldCurveChartApi; series: CurveSeries } | null>(null);
  const shownRef = useRef<LineData<number>[]>([]);
  // The axis formatter is given once, at creation; it reads the latest months and day from here.
  const labelsRef = useRef<{ months: Map<number, string>; today: Date }>({ months: new Map(), today });

  useEffect(() => {
    const container = containerRef.current!;
    const dateOf = (days: number) => {
      const date = new Date(labelsRef.current.today.getTime() + Math.round(days) * 86_400_000);
      return `${String(date.getUTCDate()).padStart(2, '0')}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCFullYear() % 100).padStart(2, '0')}`;
    };
    const chart = createYieldCurveChart(container, {
      autoSize: true,
      yieldCurve: {
        baseResolution: 1,
        minimumTimeRange: 31,
        startTimeRange: 0,
      },
      localization: {
        priceFormatter: (value: number) => `${formatNumber(value, 2)} %`,
        // The axis and the crosshair: the month that expires that day, or the date (today + days).
        timeFormatter: (days: number) => {
          const month = labelsRef.current.months.get(Math.round(days));
          return month ?? dateOf(days);
        },
      },
      // Room after the last month, so its point and label are not cut at the edge (in days).
      timeScale: { rightOffset: 12 },
      handleScroll: false,
      handleScale: false,
      crosshair: { vertLine: { style: LineStyle.Dotted }, horzLine: { style: LineStyle.Dotted } },
    });
    // lightweight-charts lays its panes and scales out in a <table>: layout, not data.
    chart.chartElement().querySelector('table')?.setAttribute('role', 'presentation');
    const series = chart.addSeries(LineSeries, { lineWidth: 2, pointMarkersVisible: true, priceLineVisible: false });
    chartRef.current = { chart, series };
    // Every month in view whatever the size: with autoSize the chart keeps its range from the
    // right when its box changes, so a box that grew after the first fit (the grid's layout
    // settling) left the nearest months out, and the scale, fitted to what is in view, cut
    // their line at the top.
    const fit = () => chart.timeScale().fitContent();
    chart.timeScale().subscribeSizeChange(fit);
    applyTheme(chart, series, container);
    // The page's theme and colour theme are attributes of <html> (AppearanceSync).
    const observer = new MutationObserver(() => applyTheme(chart, series, container));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-color-theme'] });
    return () => {
      observer.disconnect();
      chart.timeScale().unsubscribeSizeChange(fit);
      chartRef.current = null;
      shownRef.current = [];
      chart.remove();
    };
  }, []);

  useEffect(() => {
    labelsRef.current = { months: new Map(points.map((point) => [point.days, point.month])), today };
  }, [points, today]);

  useEffect(() => {
    const current = chartRef.current;
    if (!current) return;
    const next: LineData<number>[] = points.map((point) => ({ time: point.days, value: point.value }));
    const shown = shownRef.current;
    const sameMonths = shown.length === next.length && shown.every((point, index) => point.time === next[index]!.time);
    if (!sameMonths) {
      current.series.setData(next);
      current.chart.timeScale().fitContent();
    } else {
      // A tick moves some months: update those points only.
      next.forEach((point, index) => {
        if (point.value !== shown[index]!.value) current.series.update(point, true);
      });
    }
    shownRef.current = next;
  }, [points]);

  return (
    <div className="vs-curve__chart" ref={containerRef} role="img" aria-label={`Gráfico de la ${rateLabel} por vencimiento`} data-points={points.length} />
  );
}
