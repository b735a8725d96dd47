import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VisoresDb } from '../shared/db';
import { MAX_RECENT_EMOJIS, readRecentEmojis, RECENT_EMOJIS_ID, selectRecentEmoji, withSelected, type RecentEmoji } from './recentEmojis';

const emoji = (u: string, ...n: string[]): RecentEmoji => ({ u, n: n.length > 0 ? n : [`name-${u}`] });

let database: VisoresDb;
let dbCount = 0;

beforeEach(() => {
  database = new VisoresDb(`recent-emojis-test-${++dbCount}`);
});
afterEach(async () => {
  await database.delete();
});

describe('withSelected', () => {
  it('puts a new emoji first', () => {
    expect(withSelected([emoji('1f600')], emoji('1f4c8', 'chart'))).toEqual([emoji('1f4c8', 'chart'), emoji('1f600')]);
  });

  it('moves an emoji already in the list to the front without repeating it', () => {
    const list = [emoji('a'), emoji('b'), emoji('c')];
    expect(withSelected(list, emoji('c')).map((entry) => entry.u)).toEqual(['c', 'a', 'b']);
  });

  it('returns the very same list when the emoji is already first', () => {
    const list = [emoji('a'), emoji('b')];
    expect(withSelected(list, emoji('a'))).toBe(list);
  });

  it('keeps at most 24, dropping the oldest', () => {
    const list = Array.from({ length: MAX_RECENT_EMOJIS }, (_, i) => emoji(`e${i}`));
    const next = withSelected(list, emoji('new'));
    expect(MAX_RECENT_EMOJIS).toBe(24);
    expect(next).toHaveLength(24);
    expect(next[0]!.u).toBe('new');
    expect(next.at(-1)!.u).toBe('e22');
  });
});

describe('recent emojis in the local database', () => {
  it('starts empty', async () => {
    expect(await readRecentEmojis(database)).toEqual([]);
  });

  it('stores the whole list serialized in the one record with id 0, most recent first', async () => {
    await selectRecentEmoji(emoji('a', 'alfa'), database);
    await selectRecentEmoji(emoji('b', 'beta'), database);
    const records = await database.recentEmojis.toArray();
    expect(records).toEqual([{ id: RECENT_EMOJIS_ID, data: JSON.stringify([emoji('b', 'beta'), emoji('a', 'alfa')]) }]);
    expect(await readRecentEmojis(database)).toEqual([emoji('b', 'beta'), emoji('a', 'alfa')]);
  });

  it('moves a reselected emoji to the front and keeps at most 24 across selections', async () => {
    for (let i = 0; i < 30; i++) await selectRecentEmoji(emoji(`e${i}`), database);
    await selectRecentEmoji(emoji('e10'), database);
    const list = await readRecentEmojis(database);
    expect(list).toHaveLength(24);
    expect(list.slice(0, 3).map((entry) => entry.u)).toEqual(['e10', 'e29', 'e28']);
    expect(list.filter((entry) => entry.u === 'e10')).toHaveLength(1);
    expect(list.some((entry) => entry.u === 'e5')).toBe(false);
  });

  it('changes nothing when the selected emoji is already first: the record is not rewritten', async () => {
    // Stored with other spacing than the code writes, so a rewrite would show.
    const stored = JSON.stringify([emoji('a'), emoji('b')], null, 1);
    await database.recentEmojis.put({ id: RECENT_EMOJIS_ID, data: stored });
    expect(await selectRecentEmoji(emoji('a'), database)).toEqual([emoji('a'), emoji('b')]);
    expect((await database.recentEmojis.get(RECENT_EMOJIS_ID))!.data).toBe(stored);
  });

  it('reads an unreadable record as no recents, and the next selection repairs it', async () => {
    await database.recentEmojis.put({ id: RECENT_EMOJIS_ID, data: '{no es json' });
    expect(await readRecentEmojis(database)).toEqual([]);
    await selectRecentEmoji(emoji('a'), database);
    expect(await readRecentEmojis(database)).toEqual([emoji('a')]);
  });

  it('ignores other records of the store', async () => {
    await database.recentEmojis.put({ id: 7, data: JSON.stringify([emoji('x')]) });
    expect(await readRecentEmojis(database)).toEqual([]);
  });

  it('loses no selection when two are made at once', async () => {
    await Promise.all([selectRecentEmoji(emoji('a'), database), selectRecentEmoji(emoji('b'), database)]);
    expect((await readRecentEmojis(database)).map((entry) => entry.u).sort()).toEqual(['a', 'b']);
  });
});
