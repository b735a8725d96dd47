import { hashKey, partialMatchKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { adminKeys, marketKeys, profileKeys, workerKeys } from './keys';
import { adminPositionsKeys } from './keys';

const domains = { market: marketKeys, profile: profileKeys, worker: workerKeys, admin: adminKeys };

describe('query keys', () => {
  it('start with their domain, so invalidating the domain reaches every one', () => {
    const keys = [
      [marketKeys.all, marketKeys.search('al30')],
      [marketKeys.all, marketKeys.submittedSearch('al30')],
      [marketKeys.all, marketKeys.dailyHistory('DLR/DIC26', 30)],
      [profileKeys.all, profileKeys.detail()],
      [workerKeys.all, workerKeys.eventLog()],
      [adminKeys.all, adminKeys.users()],
    ] as const;
    for (const [root, key] of keys) expect(partialMatchKey(key, root)).toBe(true);
  });

  it('keep the domains apart', () => {
    const roots = Object.values(domains).map((keys) => hashKey(keys.all));
    expect(new Set(roots).size).toBe(roots.length);
    expect(partialMatchKey(profileKeys.detail(), marketKeys.all)).toBe(false);
  });

  it('name a search by its text without the surrounding blanks', () => {
    expect(marketKeys.search('  al30 ')).toEqual(marketKeys.search('al30'));
    expect(hashKey(marketKeys.search('al30'))).not.toBe(hashKey(marketKeys.search('al3')));
  });

  it("keep a symbol's history apart from the searches, one per symbol and length", () => {
    expect(partialMatchKey(marketKeys.dailyHistory('al30', 30), marketKeys.search('al30'))).toBe(false);
    expect(hashKey(marketKeys.dailyHistory('AL30', 30))).not.toBe(hashKey(marketKeys.dailyHistory('AL30', 60)));
  });

  it("keep a submitted text's search apart from the live search of the same text, under it", () => {
    const live = marketKeys.search('XYZ123');
    const submitted = marketKeys.submittedSearch(' XYZ123 ');
    expect(hashKey(submitted)).not.toBe(hashKey(live));
    expect(partialMatchKey(submitted, live)).toBe(true);
  });

  it("keep the admin's broker sessions in a domain of their own", () => {
    expect(partialMatchKey(adminPositionsKeys.sessions(), adminPositionsKeys.all)).toBe(true);
    const roots = [...Object.values(domains).map((keys) => hashKey(keys.all))];
    expect(roots).not.toContain(hashKey(adminPositionsKeys.all));
    expect(partialMatchKey(adminPositionsKeys.sessions(), adminKeys.all)).toBe(false);
  });
});
