import { describe, expect, it } from 'vitest';
import { applyPayload, foldPayloads, foldPayloadsInto } from './quote';

describe("the '0' rule", () => {
  it("keeps the known value of a field sent as '0'", () => {
    const known = applyPayload(undefined, { md: { OP: 100, HI: 110, LA: { price: 105, size: 1, date: 1 } } });
    const next = applyPayload(known, { md: { OP: '0', HI: 112, LA: '0' } });
    expect(next.md).toEqual({ OP: 100, HI: 112, LA: { price: 105, size: 1, date: 1 } });
  });

  it("ignores a top-level '0' expiration and keeps the parsed date", () => {
    const known = applyPayload(undefined, { md: {}, expiration: '20261231' });
    expect(known.expiration).toEqual(new Date(Date.UTC(2026, 11, 31)));
    expect(applyPayload(known, { md: { OP: 1 }, expiration: '0' }).expiration).toEqual(new Date(Date.UTC(2026, 11, 31)));
  });

  it('replaces entries that carry a value, including numeric zero and null', () => {
    const known = applyPayload(undefined, { md: { TV: 500, LA: { price: 1, size: 1, date: 1 } } });
    expect(applyPayload(known, { md: { TV: 0, LA: null } }).md).toEqual({ TV: 0, LA: null });
  });

  it('keeps the market a snapshot named through updates that do not name it, and takes no unknown one', () => {
    const known = applyPayload(undefined, { md: { OP: 1 }, market: 'rofex' });
    expect(known.market).toBe('rofex');
    expect(applyPayload(known, { md: { OP: 2 } }).market).toBe('rofex');
    expect(applyPayload(undefined, { md: {}, market: 'nyse' }).market).toBeUndefined();
  });

  it('does not turn an unparsable expiration into a date', () => {
    expect(applyPayload(undefined, { md: {}, expiration: '2026-13-45' }).expiration).toBeUndefined();
  });
});

describe('folding two payloads of a symbol', () => {
  it('equals applying both in order', () => {
    const base = applyPayload(undefined, { md: { OP: 1, HI: 2, LO: 1 } });
    const first = { md: { HI: 5, LO: '0' } };
    const second = { md: { HI: '0', LO: 0.5, TV: 9 }, expiration: '20270115' };
    expect(applyPayload(base, foldPayloads(first, second))).toEqual(applyPayload(applyPayload(base, first), second));
  });

  it('in place gives the same as the pure fold, including null and ignored entries', () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ md: { HI: 5, LO: '0' } }, { md: { HI: '0', LO: 0.5, TV: 9 }, expiration: '20270115' }],
      [{ md: { HI: 5 } }, { md: '0' }],
      [{ md: { HI: 5 } }, { md: null }],
      [{}, { md: { OP: 1 } }],
    ];
    for (const [older, newer] of cases) {
      const pure = foldPayloads(older, newer);
      expect(foldPayloadsInto(structuredClone(older), newer)).toEqual(pure);
    }
  });
});
