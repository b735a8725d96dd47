import { describe, expect, it } from 'vitest';
import { MAX_QUOTE_ROWS, MAX_SECTIONS, Secciones, type QuoteRowConfig, type Section } from '../protocol/workspace';
import { addBoardWithSymbol, addSymbolToBoard, boardHolds, quoteBoards, sameSymbol } from './boardAdd';

const board = (id: string, symbols: string[], layout = { x: 0, y: 0, w: 6, h: 8 }, title = id): Section => ({
  id,
  type: 'quotes',
  title,
  layout,
  config: { rows: symbols.map((symbol): QuoteRowConfig => ({ kind: 'symbol', symbol })), columns: ['last'] },
});

const formulas: Section = {
  id: 'f',
  type: 'formula',
  title: 'Fórmulas',
  layout: { x: 6, y: 0, w: 6, h: 8 },
  config: { formulas: [{ name: 'MEP', expression: 'BYMA:AL30 / BYMA:AL30D', unit: 'price' }] },
};

describe('sameSymbol', () => {
  it('takes every spelling of one instrument as the same, and different instruments as different', () => {
    expect(sameSymbol('BYMA:AL30', 'MERV - XMEV - AL30 - 24hs')).toBe(true);
    expect(sameSymbol('rofex:dlr/dic26', 'DLR/DIC26')).toBe(true);
    expect(sameSymbol('MERV - XMEV - AL30 - CI', 'MERV - XMEV - AL30 - 24hs')).toBe(false);
    expect(sameSymbol('DLR/DIC26', 'DLR/DIC26/ENE27')).toBe(false);
  });
});

describe('quoteBoards', () => {
  it('lists only the quote boards, in the order the grid shows them, with their symbols', () => {
    const sections = [board('low', ['GGAL'], { x: 0, y: 10, w: 6, h: 8 }, 'Abajo'), formulas, board('top', ['DLR/SPOT', 'DLR/DIC26'], undefined, 'Arriba')];
    expect(quoteBoards(sections)).toEqual([
      { id: 'top', title: 'Arriba', rows: 2, symbols: ['DLR/SPOT', 'DLR/DIC26'] },
      { id: 'low', title: 'Abajo', rows: 1, symbols: ['GGAL'] },
    ]);
    expect(quoteBoards([formulas])).toEqual([]);
  });

  it('counts formula rows as rows but not as symbols; boardHolds sees a symbol in any spelling', () => {
    const withFormula: Section = {
      ...(board('b', []) as Extract<Section, { type: 'quotes' }>),
      config: {
        rows: [
          { kind: 'symbol', symbol: 'MERV - XMEV - AL30 - 24hs' },
          { kind: 'formula', name: 'MEP', expression: 'BYMA:AL30 / BYMA:AL30D', unit: 'price' },
        ],
        columns: [],
      },
    };
    const [listed] = quoteBoards([withFormula]);
    expect(listed).toMatchObject({ rows: 2, symbols: ['MERV - XMEV - AL30 - 24hs'] });
    expect(boardHolds(listed!, 'BYMA:AL30')).toBe(true);
    expect(boardHolds(listed!, 'MERV - XMEV - AL30D - 24hs')).toBe(false);
  });

  it('reads a board stored as `{symbols, columns}` (before formula rows)', () => {
    const old = { ...board('old', []), config: { symbols: ['GGAL'], columns: [] } } as unknown as Section;
    expect(quoteBoards([old])[0]!.symbols).toEqual(['GGAL']);
  });
});

describe('addSymbolToBoard', () => {
  const sections = [formulas, board('b', ['DLR/SPOT'])];

  it('adds the symbol at the end of that board and changes nothing else', () => {
    const outcome = addSymbolToBoard(sections, 'b', 'DLR/DIC26');
    expect(outcome.kind).toBe('added');
    if (outcome.kind !== 'added') return;
    expect(outcome.sections[0]).toBe(formulas);
    expect(outcome.sections[1]).toEqual(board('b', ['DLR/SPOT', 'DLR/DIC26']));
    // The input is not touched, and the result is what the server takes.
    expect(sections[1]).toEqual(board('b', ['DLR/SPOT']));
    expect(Secciones.safeParse(outcome.sections).success).toBe(true);
  });

  it('does not add a symbol the board already has, in any spelling', () => {
    expect(addSymbolToBoard(sections, 'b', 'DLR/SPOT')).toEqual({ kind: 'present' });
    expect(addSymbolToBoard(sections, 'b', 'ROFEX:DLR/SPOT')).toEqual({ kind: 'present' });
  });

  it('says when the board is full or gone, or is not a quote board', () => {
    const full = board(
      'full',
      Array.from({ length: MAX_QUOTE_ROWS }, (_, index) => `S${index}`),
    );
    expect(addSymbolToBoard([full], 'full', 'DLR/DIC26')).toEqual({ kind: 'full' });
    expect(addSymbolToBoard(sections, 'gone', 'DLR/DIC26')).toEqual({ kind: 'missing' });
    expect(addSymbolToBoard(sections, 'f', 'DLR/DIC26')).toEqual({ kind: 'missing' });
  });
});

describe('addBoardWithSymbol', () => {
  it('adds a board holding only the symbol, below every section, with the default columns', () => {
    const sections = [formulas, board('b', [], { x: 0, y: 8, w: 6, h: 4 })];
    const outcome = addBoardWithSymbol(sections, 'DLR/DIC26', { id: 'nuevo', title: 'Cotizaciones', size: { w: 6, h: 8 } });
    expect(outcome).toEqual({
      kind: 'added',
      sections: [
        ...sections,
        {
          id: 'nuevo',
          type: 'quotes',
          title: 'Cotizaciones',
          layout: { x: 0, y: 12, w: 6, h: 8 },
          config: { rows: [{ kind: 'symbol', symbol: 'DLR/DIC26' }], columns: [] },
        },
      ],
    });
    if (outcome.kind === 'added') expect(Secciones.safeParse(outcome.sections).success).toBe(true);
    expect(addBoardWithSymbol([], 'GGAL', { id: 'x', title: 'Cotizaciones', size: { w: 6, h: 8 } })).toMatchObject({
      kind: 'added',
      sections: [{ layout: { x: 0, y: 0 } }],
    });
  });

  it('refuses a visor that has every section it may have', () => {
    const many = Array.from({ length: MAX_SECTIONS }, (_, index) => ({ ...formulas, id: `f${index}` }));
    expect(addBoardWithSymbol(many, 'GGAL', { id: 'x', title: 'Cotizaciones', size: { w: 6, h: 8 } })).toEqual({ kind: 'too-many-sections' });
  });
});
