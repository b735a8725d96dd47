// Rows move up and down only (@dnd-kit/modifiers is not a dependency; this is its one-liner).
import type { Modifier } from '@dnd-kit/core';

export const restrictToVerticalAxis: Modifier = ({ transform }) => ({ ...transform, x: 0 });
