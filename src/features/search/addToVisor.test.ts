import { describe, expect, it } from 'vitest';
import type { QuoteRowConfig, Section } from '../../protocol/workspace';
import { addProblem, addToVisor, type SaveSections, type SectionsSaved } from './addToVisor';

const board = (id: string, symbols: string[], y = 0): Section => ({
  id,
  type: 'quotes',
  title: `Tabla ${id}`,
  layout: { x: 0, y, w: 6, h: 8 },
  config: { rows: symbols.map((symbol): QuoteRowConfig => ({ kind: 'symbol', symbol })), columns: [] },
});

/** A fake saveSecciones answering `answers` in turn, and the saves it was asked for. */
function fakeSave(...answers: SectionsSaved[]) {
  const calls: { visorId: string; base: Section[]; sections: Section[]; version: number }[] = [];
  const save: SaveSections = async (visorId, request) => {
    calls.push({ visorId, ...request });
    const answer = answers.shift();
    if (!answer) throw new Error('unexpected save');
    return answer;
  };
  return { save, calls };
}

const visor = { visor_id: 'v1', secciones: [board('a', ['DLR/SPOT'])], version: 7 };

describe('addToVisor', () => {
  it('saves the sections with the symbol added over the ones read, at their version', async () => {
    const { save, calls } = fakeSave({ outcome: 'saved', visor: { secciones: [board('a', ['DLR/SPOT', 'DLR/DIC26'])], version: 8 } });
    expect(await addToVisor(save, visor, 'DLR/DIC26', { kind: 'board', boardId: 'a' })).toEqual({ kind: 'added', boardId: 'a' });
    expect(calls).toEqual([{ visorId: 'v1', base: visor.secciones, sections: [board('a', ['DLR/SPOT', 'DLR/DIC26'])], version: 7 }]);
  });

  it('saves nothing for a symbol the board has already', async () => {
    const { save, calls } = fakeSave();
    expect(await addToVisor(save, visor, 'ROFEX:DLR/SPOT', { kind: 'board', boardId: 'a' })).toEqual({ kind: 'present', boardId: 'a' });
    expect(calls).toEqual([]);
  });

  it('adds again on the server’s sections when the server won, once, and stops when the symbol is there by then', async () => {
    const theirs = [board('a', ['DLR/SPOT', 'GGAL'])];
    const { save, calls } = fakeSave(
      { outcome: 'server-won', visor: { secciones: theirs, version: 9 } },
      { outcome: 'saved', visor: { secciones: [board('a', ['DLR/SPOT', 'GGAL', 'DLR/DIC26'])], version: 10 } },
    );
    expect(await addToVisor(save, visor, 'DLR/DIC26', { kind: 'board', boardId: 'a' })).toEqual({ kind: 'added', boardId: 'a' });
    expect(calls[1]).toEqual({ visorId: 'v1', base: theirs, sections: [board('a', ['DLR/SPOT', 'GGAL', 'DLR/DIC26'])], version: 9 });

    const already = fakeSave({ outcome: 'server-won', visor: { secciones: [board('a', ['DLR/SPOT', 'DLR/DIC26'])], version: 9 } });
    expect(await addToVisor(already.save, visor, 'DLR/DIC26', { kind: 'board', boardId: 'a' })).toEqual({ kind: 'present', boardId: 'a' });
    expect(already.calls).toHaveLength(1);

    const twice = fakeSave(
      { outcome: 'server-won', visor: { secciones: theirs, version: 9 } },
      { outcome: 'server-won', visor: { secciones: theirs, version: 10 } },
    );
    expect(await addToVisor(twice.save, visor, 'DLR/DIC26', { kind: 'board', boardId: 'a' })).toEqual({ kind: 'conflict' });
  });

  it('creates a board holding the symbol in a visor without one', async () => {
    const empty = { visor_id: 'v2', secciones: [], version: 1 };
    const { save, calls } = fakeSave({ outcome: 'saved', visor: { secciones: [], version: 2 } });
    const result = await addToVisor(save, empty, 'GGAL', { kind: 'new-board', board: { id: 'n1', title: 'Cotizaciones', size: { w: 6, h: 8 } } });
    expect(result).toEqual({ kind: 'added', boardId: 'n1' });
    expect(calls[0]!.sections).toEqual([
      {
        id: 'n1',
        type: 'quotes',
        title: 'Cotizaciones',
        layout: { x: 0, y: 0, w: 6, h: 8 },
        config: { rows: [{ kind: 'symbol', symbol: 'GGAL' }], columns: [] },
      },
    ]);
  });

  it('lets a failed save through to the caller (its message is the worker’s)', async () => {
    const failing: SaveSections = () => Promise.reject(Object.assign(new Error('El visor ya no existe'), { code: 'gone', status: 410 }));
    await expect(addToVisor(failing, visor, 'DLR/DIC26', { kind: 'board', boardId: 'a' })).rejects.toMatchObject({ status: 410 });
  });
});

describe('addProblem', () => {
  it('says nothing for an added symbol and names the board otherwise', () => {
    expect(addProblem({ kind: 'added', boardId: 'a' }, 'DLR/DIC26', 'Dólar')).toBeNull();
    expect(addProblem({ kind: 'present', boardId: 'a' }, 'DLR/DIC26', 'Dólar')).toBe('DLR/DIC26 ya está en «Dólar».');
    expect(addProblem({ kind: 'full' }, 'DLR/DIC26', 'Dólar')).toMatch(/«Dólar» ya tiene el máximo de filas/);
  });
});
