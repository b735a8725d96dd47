import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Section } from '../protocol/workspace';
import { VisoresDb, type VisorDraftRecord } from '../shared/db';
import { keepVisorDraft, readVisorDraft, settleVisorDraft } from './visorDrafts';

const formula = (id: string, title: string): Section => ({
  id,
  type: 'formula',
  title,
  layout: { x: 0, y: 0, w: 6, h: 4 },
  config: { formulas: [] },
});

const base = [formula('a', 'Uno'), formula('b', 'Dos')];
const mine = [formula('a', 'Uno mío'), formula('b', 'Dos')];
const record = (overrides: Partial<VisorDraftRecord> = {}): VisorDraftRecord => ({
  userId: 'ana',
  visor_id: 'v1',
  base,
  version: 3,
  draft: mine,
  editor: 'tab-a',
  savedAt: 1,
  ...overrides,
});

let database: VisoresDb;
let count = 0;
beforeEach(() => {
  database = new VisoresDb(`visor-drafts-${++count}`);
});
afterEach(async () => {
  await database.delete();
});

describe('the pending draft of a visor', () => {
  it('is kept and read back whole, one per user and visor: a later change replaces it', async () => {
    expect(await readVisorDraft('ana', 'v1', database)).toBeNull();
    await keepVisorDraft(record(), database);
    const later = record({ draft: [formula('a', 'Uno mío otra vez'), formula('b', 'Dos')], editor: 'tab-b', savedAt: 2 });
    await keepVisorDraft(later, database);
    await keepVisorDraft(record({ userId: 'beto' }), database);
    expect(await readVisorDraft('ana', 'v1', database)).toEqual(later);
    expect(await readVisorDraft('ana', 'v2', database)).toBeNull();
    expect(await database.visorDrafts.count()).toBe(2);
  });

  it('is cleared by the screen that made it once that screen has nothing pending', async () => {
    await keepVisorDraft(record(), database);
    expect(await settleVisorDraft('ana', 'v1', { editor: 'tab-a', confirmed: [base] }, database)).toBe(true);
    expect(await readVisorDraft('ana', 'v1', database)).toBeNull();
  });

  it('is cleared by any screen when the server has its sections (saved by the tab that went away)', async () => {
    await keepVisorDraft(record(), database);
    // Key order differs, as in a parsed answer: still the same sections.
    const saved = mine.map(({ config, layout, title, type, id }) => ({ config, layout, title, type, id }) as Section);
    expect(await settleVisorDraft('ana', 'v1', { editor: 'tab-b', confirmed: [saved] }, database)).toBe(true);
    expect(await readVisorDraft('ana', 'v1', database)).toBeNull();
  });

  it('stays when another tab made it and the server does not have it yet', async () => {
    await keepVisorDraft(record({ editor: 'tab-b' }), database);
    expect(await settleVisorDraft('ana', 'v1', { editor: 'tab-a', confirmed: [base] }, database)).toBe(false);
    expect(await readVisorDraft('ana', 'v1', database)).toEqual(record({ editor: 'tab-b' }));
    expect(await settleVisorDraft('ana', 'v2', { editor: 'tab-a', confirmed: [base] }, database)).toBe(false);
  });
});
