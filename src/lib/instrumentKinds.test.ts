import { describe, expect, it } from 'vitest';
import { INSTRUMENT_KINDS } from '../protocol/market';
import { INSTRUMENT_KIND_LABELS, instrumentKindLabel } from './instrumentKinds';

describe('instrument kinds in Spanish', () => {
  it('names every kind of the catalogue with a word of its own, none left in English', () => {
    const labels = INSTRUMENT_KINDS.map((kind) => instrumentKindLabel(kind));
    expect(new Set(labels).size).toBe(INSTRUMENT_KINDS.length);
    for (const kind of INSTRUMENT_KINDS) expect(instrumentKindLabel(kind).toLowerCase()).not.toBe(kind);
  });

  it.each([
    ['future', 'Futuro'],
    ['option', 'Opción'],
    ['spread', 'Pase'],
    ['stock', 'Acción'],
    ['bond', 'Bono'],
    ['index', 'Índice'],
    ['spot', 'Spot de referencia'],
    ['other', 'Otro'],
  ])('%s → %s', (kind, label) => {
    expect(instrumentKindLabel(kind)).toBe(label);
  });

  it('reads a kind it does not know as «Otro», not as the code or a property of Object', () => {
    expect(instrumentKindLabel('warrant')).toBe('Otro');
    expect(instrumentKindLabel('toString')).toBe('Otro');
    expect(Object.keys(INSTRUMENT_KIND_LABELS)).toEqual([...INSTRUMENT_KINDS]);
  });
});
