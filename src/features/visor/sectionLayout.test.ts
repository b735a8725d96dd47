import { describe, expect, it } from 'vitest';
import type { Section } from '../../protocol/workspace';
import { applyLayout, bottomRow, readingOrder, updateConfig, updateSection } from './sectionLayout';

const at = (id: string, x: number, y: number, w = 6, h = 4): Section => ({
  id,
  type: 'formula',
  title: id,
  layout: { x, y, w, h },
  config: { formulas: [] },
});

describe('sectionLayout', () => {
  it('lands a new section below every other', () => {
    expect(bottomRow([])).toBe(0);
    expect(bottomRow([at('a', 0, 0, 6, 4), at('b', 6, 2, 6, 5)])).toBe(7);
  });

  it('applies a moved or resized item and keeps the same array when nothing changed', () => {
    const sections = [at('a', 0, 0), at('b', 6, 0)];
    expect(applyLayout(sections, [{ i: 'a', x: 0, y: 0, w: 6, h: 4 }])).toBe(sections);
    expect(applyLayout(sections, [{ i: 'b', x: 0, y: 4, w: 12, h: 3 }])[1]!.layout).toEqual({ x: 0, y: 4, w: 12, h: 3 });
  });

  it('orders sections top to bottom, then left to right, for one column', () => {
    expect(readingOrder([at('c', 0, 8), at('b', 6, 0), at('a', 0, 0)]).map((section) => section.id)).toEqual(['a', 'b', 'c']);
  });

  it('applies two quick config changes to the latest sections, so neither is lost', () => {
    const add =
      (name: string) =>
      (config: Section['config']): Section['config'] =>
        'formulas' in config ? { formulas: [...config.formulas, { name, expression: '1', unit: 'price' as const }] } : config;
    // Both changes were made from the same render (the view had not re-rendered in between).
    let sections = [at('a', 0, 0), at('b', 6, 0)];
    sections = updateSection(sections, 'a', updateConfig(add('MEP')));
    sections = updateSection(sections, 'a', updateConfig(add('CCL')));
    expect(sections[0]!.config).toEqual({
      formulas: [
        { name: 'MEP', expression: '1', unit: 'price' },
        { name: 'CCL', expression: '1', unit: 'price' },
      ],
    });
    expect(sections[1]!.config).toEqual({ formulas: [] });
  });

  it('keeps the same array when the section is gone or did not change', () => {
    const sections = [at('a', 0, 0)];
    expect(updateSection(sections, 'gone', (section) => ({ ...section, title: 'x' }))).toBe(sections);
    expect(
      updateSection(
        sections,
        'a',
        updateConfig((config) => config),
      ),
    ).toBe(sections);
    expect(updateSection(sections, 'a', (section) => ({ ...section, title: 'x' }))[0]!.title).toBe('x');
  });
});
