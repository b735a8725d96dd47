// Dexie schema upgrades keep what a browser already holds (issue 19 adds version 6, issue 21
// versions 7 and 8).
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { VisoresDb, wipeUserData } from './db';

describe('VisoresDb', () => {
  it('opens a version 5 database at the current version with its records kept and empty chartHistory and outbox', async () => {
    const name = `upgrade-${crypto.randomUUID()}`;
    const old = new Dexie(name);
    old.version(3).stores({ quotes: 'symbol', recentEmojis: '++id', folderTrees: 'userId', visores: '[userId+visor_id], userId', favourites: 'userId' });
    old.version(4).stores({ recentVisores: '[userId+visor_id], userId' });
    old.version(5).stores({ visorDrafts: '[userId+visor_id], userId' });
    await old.table('quotes').put({ symbol: 'DLR/DIC26', md: { OP: 1450 }, receivedAt: 1 });
    await old.table('visorDrafts').put({ userId: 'u1', visor_id: 'v1', base: [], version: 1, draft: [], editor: 't', savedAt: 1 });
    old.close();

    const db = new VisoresDb(name);
    await db.open();
    expect(db.verno).toBe(8);
    expect(await db.quotes.get('DLR/DIC26')).toMatchObject({ md: { OP: 1450 } });
    expect(await db.visorDrafts.get(['u1', 'v1'])).toBeDefined();
    expect(await db.chartHistory.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.catalogue.count()).toBe(0);
    await db.chartHistory.put({ symbol: 'BYMA:AL30', key: 'daily:66', candles: [], fetchedAt: 1 });
    expect(await db.chartHistory.get(['BYMA:AL30', 'daily:66'])).toMatchObject({ fetchedAt: 1 });
    db.close();
  });

  it('opens a version 7 database at version 8 with its outbox and workspace kept and an empty catalogue', async () => {
    const name = `upgrade-${crypto.randomUUID()}`;
    const old = new Dexie(name);
    old.version(3).stores({ quotes: 'symbol', recentEmojis: '++id', folderTrees: 'userId', visores: '[userId+visor_id], userId', favourites: 'userId' });
    old.version(4).stores({ recentVisores: '[userId+visor_id], userId' });
    old.version(5).stores({ visorDrafts: '[userId+visor_id], userId' });
    old.version(6).stores({ chartHistory: '[symbol+key], fetchedAt' });
    old.version(7).stores({ outbox: '++seq, userId' });
    await old.table('outbox').add({ userId: 'u1', key: 'k1', op: { kind: 'favourite', visorId: 'v1', fav: true }, createdAt: 1 });
    await old.table('folderTrees').put({ userId: 'u1', nodes: [], version: 4, syncedAt: 1 });
    old.close();

    const db = new VisoresDb(name);
    await db.open();
    expect(db.verno).toBe(8);
    expect(await db.outbox.where('userId').equals('u1').toArray()).toMatchObject([{ key: 'k1', op: { kind: 'favourite' } }]);
    expect(await db.folderTrees.get('u1')).toMatchObject({ version: 4 });
    expect(await db.catalogue.count()).toBe(0);
    await db.catalogue.put({ id: 'instruments', instruments: [], fetchedAt: 1 });
    expect(await db.catalogue.get('instruments')).toMatchObject({ fetchedAt: 1 });
    db.close();
  });

  it("wipes at logout every record of the user and the caches of what they watched; another user's records and the recent emojis stay", async () => {
    const db = new VisoresDb(`wipe-${crypto.randomUUID()}`);
    for (const userId of ['u1', 'u2']) {
      await db.folderTrees.put({ userId, nodes: [], version: 1, syncedAt: 1 });
      await db.favourites.put({ userId, visores: [], folders: [] });
      await db.recentVisores.put({ userId, visor_id: 'v1', openedAt: 1 });
      await db.visorDrafts.put({ userId, visor_id: 'v1', base: [], version: 1, draft: [], editor: 't', savedAt: 1 });
      await db.outbox.add({ userId, key: `k-${userId}`, op: { kind: 'favourite' }, createdAt: 1 });
    }
    await db.quotes.put({ symbol: 'DLR/DIC26', md: { OP: 1450 }, receivedAt: 1 });
    await db.chartHistory.put({ symbol: 'BYMA:AL30', key: 'daily:66', candles: [], fetchedAt: 1 });
    await db.catalogue.put({ id: 'instruments', instruments: [], fetchedAt: 1 });
    await db.recentEmojis.put({ id: 0, data: '[]' });

    await wipeUserData(db, 'u1');
    for (const table of [db.folderTrees, db.favourites, db.recentVisores, db.visorDrafts, db.outbox]) {
      expect(await table.where('userId').equals('u1').count(), table.name).toBe(0);
      expect(await table.where('userId').equals('u2').count(), table.name).toBe(1);
    }
    expect([await db.quotes.count(), await db.chartHistory.count(), await db.catalogue.count()]).toEqual([0, 0, 0]);
    expect(await db.recentEmojis.count()).toBe(1);
    db.close();
  });
});
