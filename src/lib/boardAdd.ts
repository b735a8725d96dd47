// Adding a symbol to a quote board from outside the visor (the search page): which boards a
// visor has, whether one already holds the symbol, and the visor's sections with the symbol
// added, or with a new board holding it. Pure: the caller saves the sections through the data
// worker's one write path (saveSecciones, with the base it read), as the visor screen does.
import { MAX_QUOTE_ROWS, MAX_SECTIONS, migrateQuotesConfig, type QuoteRowConfig, type Section } from '../protocol/workspace';
import { exchangeSymbol } from './symbolNames';

type QuotesSection = Extract<Section, { type: 'quotes' }>;

/** A visor's quote board as a menu lists it. */
export interface QuoteBoard {
  id: string;
  title: string;
  /** Its symbol rows' symbols, as stored. */
  symbols: string[];
  rows: number;
}

/** The rows of a board's config (read defensively: a config stored as `{symbols}` still counts). */
function rowsOf(section: QuotesSection): QuoteRowConfig[] {
  const config = migrateQuotesConfig(section.config) as { rows?: unknown } | null;
  return Array.isArray(config?.rows) ? (config.rows as QuoteRowConfig[]) : [];
}

/** One instrument whatever the spelling: `BYMA:AL30` is `MERV - XMEV - AL30 - 24hs`, `rofex:dlr/dic26` is `DLR/DIC26`. */
export function sameSymbol(a: string, b: string): boolean {
  return exchangeSymbol(a).toUpperCase() === exchangeSymbol(b).toUpperCase();
}

/** The visor's quote boards, in the order the grid shows them (top to bottom, left to right). */
export function quoteBoards(sections: readonly Section[]): QuoteBoard[] {
  return sections
    .filter((section): section is QuotesSection => section.type === 'quotes')
    .sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x)
    .map((section) => {
      const rows = rowsOf(section);
      return { id: section.id, title: section.title, rows: rows.length, symbols: rows.flatMap((row) => (row.kind === 'symbol' ? [row.symbol] : [])) };
    });
}

/** Whether the board already has a row of the symbol (in any of its spellings). */
export function boardHolds(board: QuoteBoard, symbol: string): boolean {
  return board.symbols.some((held) => sameSymbol(held, symbol));
}

export type BoardAddOutcome =
  /** The sections with the symbol's row at the end of the board. */
  | { kind: 'added'; sections: Section[] }
  /** The board has it already: nothing to save. */
  | { kind: 'present' }
  /** The board is at MAX_QUOTE_ROWS. */
  | { kind: 'full' }
  /** No such board in these sections (deleted meanwhile). */
  | { kind: 'missing' };

/** The sections with `symbol` added at the end of the board `boardId`, or why not. */
export function addSymbolToBoard(sections: readonly Section[], boardId: string, symbol: string): BoardAddOutcome {
  const at = sections.findIndex((section) => section.id === boardId && section.type === 'quotes');
  if (at < 0) return { kind: 'missing' };
  const board = sections[at] as QuotesSection;
  const rows = rowsOf(board);
  if (rows.some((row) => row.kind === 'symbol' && sameSymbol(row.symbol, symbol))) return { kind: 'present' };
  if (rows.length >= MAX_QUOTE_ROWS) return { kind: 'full' };
  const config = { ...(migrateQuotesConfig(board.config) as QuotesSection['config']), rows: [...rows, { kind: 'symbol' as const, symbol }] };
  return { kind: 'added', sections: sections.map((section, index) => (index === at ? { ...board, config } : section)) };
}

/** A new board's id, title and size; it lands below every section, at the left. */
export interface NewBoard {
  id: string;
  title: string;
  size: { w: number; h: number };
}

export type NewBoardOutcome = { kind: 'added'; sections: Section[] } | { kind: 'too-many-sections' };

/** The sections with a new quote board holding only `symbol` (default columns), or why not. */
export function addBoardWithSymbol(sections: readonly Section[], symbol: string, board: NewBoard): NewBoardOutcome {
  if (sections.length >= MAX_SECTIONS) return { kind: 'too-many-sections' };
  const y = sections.reduce((bottom, section) => Math.max(bottom, section.layout.y + section.layout.h), 0);
  const created: QuotesSection = {
    id: board.id,
    type: 'quotes',
    title: board.title,
    layout: { x: 0, y, w: board.size.w, h: board.size.h },
    config: { rows: [{ kind: 'symbol', symbol }], columns: [] },
  };
  return { kind: 'added', sections: [...sections, created] };
}
