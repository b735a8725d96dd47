// A small line of the last minutes of a feed's ticks per second, in inline SVG (no chart
// library for 59 points). The numbers are also said in its label for screen readers.
import { formatRate } from './statusFormat';

interface SparklineProps {
  /** Oldest first. */
  samples: number[];
  /** What the samples cover, for the label. */
  label: string;
  width?: number;
  height?: number;
}

export function Sparkline({ samples, label, width = 160, height = 36 }: SparklineProps) {
  const max = Math.max(1, ...samples);
  const step = samples.length > 1 ? width / (samples.length - 1) : width;
  const points = samples.map((value, index) => `${(index * step).toFixed(1)},${(height - 2 - (value / max) * (height - 4)).toFixed(1)}`).join(' ');
  const last = samples.at(-1) ?? 0;
  const peak = samples.length > 0 ? Math.max(...samples) : 0;
  return (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`${label}: último ${formatRate(last)}, máximo ${formatRate(peak)} ticks por segundo`}
    >
      <line x1="0" x2={width} y1={height - 1} y2={height - 1} className="sparkline__base" />
      {samples.length > 0 && <polyline points={points} className="sparkline__line" />}
    </svg>
  );
}
