// Pure helpers of the visor's grid (issue 18): sections ↔ react-grid-layout items, where a
// new section lands, the one-column order on narrow screens, and one section's change applied
// to the latest sections.
import type { Section } from '../../protocol/workspace';

export const GRID_COLUMNS = 12;
/** Below this width the sections stack in one column. */
export const NARROW_WIDTH = 768;

export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The first row below every section: where a new one lands. */
export function bottomRow(sections: readonly Section[]): number {
  return sections.reduce((bottom, section) => Math.max(bottom, section.layout.y + section.layout.h), 0);
}

/** Applies the grid's layout to the sections; the same array when nothing moved or resized. */
export function applyLayout(sections: Section[], layout: readonly GridItem[]): Section[] {
  const byId = new Map(layout.map((item) => [item.i, item]));
  let changed = false;
  const next = sections.map((section) => {
    const item = byId.get(section.id);
    if (!item) return section;
    const { x, y, w, h } = section.layout;
    if (item.x === x && item.y === y && item.w === w && item.h === h) return section;
    changed = true;
    return { ...section, layout: { x: item.x, y: item.y, w: item.w, h: item.h } };
  });
  return changed ? next : sections;
}

/**
 * Applies `update` to the section `id` of `sections` (the latest ones, not those of a render);
 * the same array when the section is gone or `update` returned it unchanged.
 */
export function updateSection(sections: Section[], id: string, update: (section: Section) => Section): Section[] {
  const at = sections.findIndex((section) => section.id === id);
  if (at < 0) return sections;
  const next = update(sections[at]!);
  if (next === sections[at]) return sections;
  return sections.map((section, index) => (index === at ? next : section));
}

/** A change of a section's config as a change of the section: the same section when the config did not change. */
export function updateConfig(update: (config: Section['config']) => Section['config']): (section: Section) => Section {
  return (section) => {
    const config = update(section.config);
    // The module of section.type made config from section.config: the type still matches.
    return config === section.config ? section : ({ ...section, config } as Section);
  };
}

/** Sections in the order the grid shows them (top to bottom, left to right): the one-column order. */
export function readingOrder(sections: readonly Section[]): Section[] {
  return [...sections].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x);
}

/** A section id: letters, digits, `_` and `-` as the protocol takes them. */
export function newSectionId(): string {
  return crypto.randomUUID().replace(/-/g, '').slice(0, 16);
}
