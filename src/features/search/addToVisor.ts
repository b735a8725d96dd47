// Adds a symbol to one of the user's visores from the search page, through the visor's one write
// path: the data worker's saveSecciones with the sections read (the base) and their version, as
// the visor screen's autosave sends them. The worker sends it with If-Match and, on a 412, applies
// it again on the newer sections when they changed other sections; offline it keeps it in its
// outbox and answers at once. When the same board changed meanwhile (the server won), the
// symbol is added again on what the server has now, once.
import { addBoardWithSymbol, addSymbolToBoard, type NewBoard } from '../../lib/boardAdd';
import type { Section } from '../../protocol/workspace';

/** A visor's sections as the cache holds them, with the version they are at. */
export interface VisorSections {
  visor_id: string;
  secciones: Section[];
  version: number;
}

export interface SectionsSaved {
  outcome: 'saved' | 'merged' | 'server-won';
  visor: { secciones: Section[]; version: number };
}

/** The data worker's saveSecciones (injected, so this runs without a worker in tests). */
export type SaveSections = (visorId: string, save: { base: Section[]; sections: Section[]; version: number }) => Promise<SectionsSaved>;

/** Where the symbol goes: an existing board, or a new one made for it. */
export type AddTarget = { kind: 'board'; boardId: string } | { kind: 'new-board'; board: NewBoard };

export type AddResult =
  | { kind: 'added'; boardId: string }
  /** The board had it already (maybe since another tab added it): nothing was saved. */
  | { kind: 'present'; boardId: string }
  | { kind: 'full' }
  | { kind: 'missing' }
  | { kind: 'too-many-sections' }
  /** Another tab or device kept changing that board: nothing was saved. */
  | { kind: 'conflict' };

/** Tries on the cached sections, then once more on the server's when it won. */
const ATTEMPTS = 2;

export async function addToVisor(save: SaveSections, visor: VisorSections, symbol: string, target: AddTarget): Promise<AddResult> {
  let base = visor.secciones;
  let version = visor.version;
  const boardId = target.kind === 'board' ? target.boardId : target.board.id;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const outcome = target.kind === 'board' ? addSymbolToBoard(base, target.boardId, symbol) : addBoardWithSymbol(base, symbol, target.board);
    if (outcome.kind === 'present') return { kind: 'present', boardId };
    if (outcome.kind !== 'added') return outcome;
    const answer = await save(visor.visor_id, { base, sections: outcome.sections, version });
    if (answer.outcome !== 'server-won') return { kind: 'added', boardId };
    base = answer.visor.secciones;
    version = answer.visor.version;
  }
  return { kind: 'conflict' };
}

/** What the user is told of a result that added nothing (null for 'added'). */
export function addProblem(result: AddResult, symbol: string, boardTitle: string): string | null {
  switch (result.kind) {
    case 'added':
      return null;
    case 'present':
      return `${symbol} ya está en «${boardTitle}».`;
    case 'full':
      return `«${boardTitle}» ya tiene el máximo de filas.`;
    case 'missing':
      return `«${boardTitle}» ya no está en el visor: elija otra tabla.`;
    case 'too-many-sections':
      return 'El visor ya tiene el máximo de secciones: no admite otra tabla.';
    case 'conflict':
      return `«${boardTitle}» cambió en otra pestaña o dispositivo mientras se agregaba: inténtelo de nuevo.`;
  }
}
