// The template's chart colours (spec sections 3 and 9): a palette of 50 line colours, one per
// series in order, and a 7-colour alternate palette. One module, so every chart agrees.
export const LINE_COLORS: readonly string[] = [
  '#8b5cf6',
  '#22c55e',
  '#f59e0b',
  '#3b82f6',
  '#ef4444',
  '#14b8a6',
  '#ec4899',
  '#84cc16',
  '#f97316',
  '#06b6d4',
  '#a855f7',
  '#10b981',
  '#eab308',
  '#6366f1',
  '#f43f5e',
  '#0ea5e9',
  '#d946ef',
  '#65a30d',
  '#ea580c',
  '#0891b2',
  '#7c3aed',
  '#16a34a',
  '#ca8a04',
  '#2563eb',
  '#dc2626',
  '#0d9488',
  '#db2777',
  '#4d7c0f',
  '#c2410c',
  '#0e7490',
  '#c4b5fd',
  '#86efac',
  '#fcd34d',
  '#93c5fd',
  '#fca5a5',
  '#5eead4',
  '#f9a8d4',
  '#bef264',
  '#fdba74',
  '#67e8f9',
  '#5b21b6',
  '#166534',
  '#a16207',
  '#1e40af',
  '#991b1b',
  '#115e59',
  '#9d174d',
  '#3f6212',
  '#9a3412',
  '#155e75',
];

export const ALTERNATE_COLORS: readonly string[] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

/** The colour of the n-th series (0-based), repeating after 50. */
export function lineColor(index: number): string {
  const count = LINE_COLORS.length;
  return LINE_COLORS[((Math.trunc(index) % count) + count) % count]!;
}
