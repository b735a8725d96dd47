// The kind of an instrument from its ISO 10962 CFI code, as the exchange lists it. The first
// letter is the category (E equities, D debt, O listed options, F futures, K strategies,
// M others…); Matba Rofex files its calendar spreads as futures with group M (FM…) and its
// indices as referential instruments (MRI…). A code this does not know is 'other', never a
// guess: consumers that price or chart by kind then treat it as a plain quoted instrument.
import type { InstrumentKind } from '../../../src/protocol/market.js';

export function instrumentKindOfCfi(cficode: string | null | undefined): InstrumentKind {
  const cfi = (cficode ?? '').trim().toUpperCase();
  if (cfi.startsWith('MRI')) return 'index';
  if (cfi.startsWith('FM')) return 'spread';
  switch (cfi.charAt(0)) {
    case 'F':
      return 'future';
    case 'O':
      return 'option';
    case 'E':
      return 'stock';
    case 'D':
      return 'bond';
    case 'K':
      return 'spread';
    default:
      return 'other';
  }
}
