import { describe, expect, it } from 'vitest';
import { safeNext } from './sessionRoute';

describe('safeNext', () => {
  it("follows only this app's own paths after sign-in", () => {
    expect(safeNext('/visor/abc/edit?x=1')).toBe('/visor/abc/edit?x=1');
    for (const next of [null, '', 'https://evil.example', '//evil.example', '/auth/signin']) expect(safeNext(next)).toBe('/');
  });
});
