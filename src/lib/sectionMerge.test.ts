import { describe, expect, it } from 'vitest';
import type { Section } from '../protocol/workspace';
import { mergeSections, rebaseDraft, resumeDraft, touchedSections } from './sectionMerge';

const quotes = (id: string, title = id, y = 0): Section => ({
  id,
  type: 'quotes',
  title,
  layout: { x: 0, y, w: 6, h: 4 },
  config: { rows: [], columns: ['last'] },
});

describe('touchedSections', () => {
  it('names added, removed and changed sections, not unchanged ones', () => {
    const base = [quotes('a'), quotes('b'), quotes('c')];
    const next = [quotes('a'), quotes('b', 'Bonos'), quotes('d')];
    expect([...touchedSections(base, next)].sort()).toEqual(['b', 'c', 'd']);
  });
});

describe('sameJson (through touchedSections)', () => {
  it('does not count a section as touched when only the order of its keys differs', () => {
    const { id, type, title, config } = quotes('a');
    const reordered = { config, layout: { h: 4, w: 6, y: 0, x: 0 }, title, type, id } as Section;
    expect(touchedSections([quotes('a')], [reordered]).size).toBe(0);
    expect(touchedSections([quotes('a')], [{ ...reordered, layout: { ...reordered.layout, x: 1 } }]).size).toBe(1);
  });
});

describe('mergeSections', () => {
  const base = [quotes('a'), quotes('b', 'b', 4)];

  it('applies this tab’s change on the server’s when they touched different sections', () => {
    const mine = [quotes('a', 'Mío'), quotes('b', 'b', 4)];
    const theirs = [quotes('a'), quotes('b', 'Suyo', 4)];
    expect(mergeSections(base, mine, theirs)).toEqual({ ok: true, sections: [quotes('a', 'Mío'), quotes('b', 'Suyo', 4)] });
  });

  it('keeps a section this tab added, after the server’s, and one the server added', () => {
    const mine = [...base, quotes('n', 'Nueva', 8)];
    const theirs = [...base, quotes('s', 'Suya', 8)];
    expect(mergeSections(base, mine, theirs)).toEqual({ ok: true, sections: [...base, quotes('s', 'Suya', 8), quotes('n', 'Nueva', 8)] });
  });

  it('deletes what this tab deleted and keeps the server’s change elsewhere', () => {
    const mine = [quotes('b', 'b', 4)];
    const theirs = [quotes('a'), quotes('b', 'Suyo', 4)];
    expect(mergeSections(base, mine, theirs)).toEqual({ ok: true, sections: [quotes('b', 'Suyo', 4)] });
  });

  it('lets the server win when both changed the same section', () => {
    const mine = [quotes('a', 'Mío'), quotes('b', 'b', 4)];
    const theirs = [quotes('a', 'Suyo'), quotes('b', 'b', 4)];
    expect(mergeSections(base, mine, theirs)).toEqual({ ok: false, clashes: ['a'] });
  });

  it('lets the server win when this tab changed a section the server deleted', () => {
    const mine = [quotes('a'), quotes('b', 'Mío', 4)];
    const theirs = [quotes('a')];
    expect(mergeSections(base, mine, theirs)).toEqual({ ok: false, clashes: ['b'] });
  });

  it('answers the server’s sections when this tab changed nothing', () => {
    const theirs = [quotes('a', 'Suyo')];
    expect(mergeSections(base, base, theirs)).toEqual({ ok: true, sections: theirs });
  });
});

describe('rebaseDraft', () => {
  const base = [quotes('a'), quotes('b', 'b', 4)];

  it('takes the server’s sections when the tab changed nothing', () => {
    const server = [quotes('a', 'Suyo')];
    expect(rebaseDraft(base, base, server)).toEqual({ sections: server, lost: false });
  });

  it('keeps the tab’s change on top when the server changed another section', () => {
    const draft = [quotes('a', 'Mío'), quotes('b', 'b', 4)];
    const server = [quotes('a'), quotes('b', 'Suyo', 4)];
    expect(rebaseDraft(base, draft, server)).toEqual({ sections: [quotes('a', 'Mío'), quotes('b', 'Suyo', 4)], lost: false });
  });

  it('keeps a change made while a save was on its way when the save answers what was sent', () => {
    const sent = [quotes('a', 'Mío'), quotes('b', 'b', 4)];
    const draft = [quotes('a', 'Mío otra vez'), quotes('b', 'b', 4)];
    const saved = [quotes('a', 'Mío'), quotes('b', 'b', 4)];
    expect(rebaseDraft(sent, draft, saved)).toEqual({ sections: draft, lost: false });
  });

  it('gives the server’s sections and says the change is lost when both changed the same section', () => {
    const draft = [quotes('a', 'Mío'), quotes('b', 'b', 4)];
    const server = [quotes('a', 'Suyo'), quotes('b', 'b', 4)];
    expect(rebaseDraft(base, draft, server)).toEqual({ sections: server, lost: true });
  });
});

describe('mergeSections, a change the server already has', () => {
  const base = [quotes('a'), quotes('b', 'b', 4)];

  it('is no clash when both changed a section to the same state', () => {
    const mine = [quotes('a', 'Mío'), quotes('b', 'b', 4)];
    const theirs = [quotes('a', 'Mío'), quotes('b', 'Suyo', 4)];
    expect(mergeSections(base, mine, theirs)).toEqual({ ok: true, sections: theirs });
  });

  it('is no clash when both deleted the same section', () => {
    expect(mergeSections(base, [quotes('a')], [quotes('a', 'Suyo')])).toEqual({ ok: true, sections: [quotes('a', 'Suyo')] });
  });
});

describe('resumeDraft (a pending draft found when a visor screen opens)', () => {
  const base = [quotes('a'), quotes('b', 'b', 4)];
  const draft = [quotes('a', 'Mío'), quotes('b', 'b', 4)];

  it('stands as it is while the server is at the version it was made on', () => {
    expect(resumeDraft({ base, version: 3, draft }, { sections: base, version: 3 })).toEqual({
      pending: true,
      base: { sections: base, version: 3 },
      draft,
    });
  });

  it('is moved onto the server’s newer sections when another section changed meanwhile', () => {
    const server = [quotes('a'), quotes('b', 'Suyo', 4)];
    expect(resumeDraft({ base, version: 3, draft }, { sections: server, version: 5 })).toEqual({
      pending: true,
      base: { sections: server, version: 5 },
      draft: [quotes('a', 'Mío'), quotes('b', 'Suyo', 4)],
    });
  });

  it('is not pending when the server already has it, at the same or a later version (not saved twice)', () => {
    expect(resumeDraft({ base, version: 3, draft }, { sections: draft, version: 4 })).toEqual({ pending: false, lost: false });
    // Saved, then another tab changed another section: still nothing of it to save.
    const later = [quotes('a', 'Mío'), quotes('b', 'Suyo', 4)];
    expect(resumeDraft({ base, version: 3, draft }, { sections: later, version: 6 })).toEqual({ pending: false, lost: false });
  });

  it('is lost when the server changed the same section otherwise since (the 412 rule: the server wins)', () => {
    const server = [quotes('a', 'Suyo'), quotes('b', 'b', 4)];
    expect(resumeDraft({ base, version: 3, draft }, { sections: server, version: 4 })).toEqual({ pending: false, lost: true });
  });

  it('is not pending when it changed nothing', () => {
    expect(resumeDraft({ base, version: 3, draft: [...base] }, { sections: base, version: 3 })).toEqual({ pending: false, lost: false });
  });

  it('keeps its own base when the cached copy is older than it', () => {
    const old = [quotes('a', 'Viejo')];
    expect(resumeDraft({ base, version: 3, draft }, { sections: old, version: 2 })).toEqual({
      pending: true,
      base: { sections: base, version: 3 },
      draft,
    });
  });
});
