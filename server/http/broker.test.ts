import { describe, expect, it } from 'vitest';
import { matchesIfNoneMatch } from './broker.js';

describe('matchesIfNoneMatch', () => {
  const etag = '"Csp_E-8rETFZB48-"';

  it('matches the same quoted etag, weak or strong, alone or in a list', () => {
    expect(matchesIfNoneMatch(etag, etag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${etag}`, etag)).toBe(true);
    expect(matchesIfNoneMatch(`"a", ${etag} ,"b"`, etag)).toBe(true);
    expect(matchesIfNoneMatch(['"a"', etag], etag)).toBe(true);
    expect(matchesIfNoneMatch(' * ', etag)).toBe(true);
  });

  it('does not match a missing, empty, different or unquoted etag', () => {
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
    expect(matchesIfNoneMatch('', etag)).toBe(false);
    expect(matchesIfNoneMatch('"other"', etag)).toBe(false);
    expect(matchesIfNoneMatch('Csp_E-8rETFZB48-', etag)).toBe(false);
    expect(matchesIfNoneMatch('"a", *', etag)).toBe(false);
  });
});
