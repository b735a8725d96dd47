// Instrument kinds as an Argentine trader names them (the catalogue's kinds are English codes,
// src/protocol/market.ts). One table, so every screen that shows a kind says the same word.
import type { InstrumentKind } from '../protocol/market';

export const INSTRUMENT_KIND_LABELS: Record<InstrumentKind, string> = {
  future: 'Futuro',
  option: 'Opción',
  // Calendar spreads of a futures product: on Matba Rofex's desks, a «pase».
  spread: 'Pase',
  stock: 'Acción',
  bond: 'Bono',
  index: 'Índice',
  // The A3500 (DLR/SPOT), what the dollar futures settle against.
  spot: 'Spot de referencia',
  other: 'Otro',
};

/** The kind's name; an unknown code (a newer server's) reads as «Otro». */
export function instrumentKindLabel(kind: string): string {
  return Object.hasOwn(INSTRUMENT_KIND_LABELS, kind) ? INSTRUMENT_KIND_LABELS[kind as InstrumentKind] : INSTRUMENT_KIND_LABELS.other;
}
