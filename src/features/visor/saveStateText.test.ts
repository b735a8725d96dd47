import { describe, expect, it } from 'vitest';
import { shownSaveState } from './saveStateText';

const clear = { online: true, pending: 0, replayError: null };

describe('the save state a visor header shows', () => {
  it('says Guardado only when the server has every change', () => {
    expect(shownSaveState({ kind: 'saved' }, clear)).toEqual({ kind: 'saved', text: 'Guardado' });
    expect(shownSaveState({ kind: 'saved' }, { ...clear, pending: 1 }).kind).not.toBe('saved');
  });

  it('counts the changes kept offline, with why', () => {
    expect(shownSaveState({ kind: 'saved' }, { online: false, pending: 1, replayError: null })).toEqual({
      kind: 'unsent',
      text: '1 cambio sin enviar: sin conexión',
    });
    expect(shownSaveState({ kind: 'saved' }, { online: false, pending: 3, replayError: null }).text).toBe('3 cambios sin enviar: sin conexión');
    expect(shownSaveState({ kind: 'saved' }, { online: true, pending: 2, replayError: 'Error interno' })).toEqual({
      kind: 'unsent',
      text: '2 cambios sin enviar: el servidor falla (Error interno)',
    });
  });

  it('says Guardando… while this screen saves or the outbox is being sent, and the refusal when refused', () => {
    expect(shownSaveState({ kind: 'saving' }, clear).text).toBe('Guardando…');
    expect(shownSaveState({ kind: 'saved' }, { ...clear, pending: 2 })).toEqual({ kind: 'saving', text: 'Guardando…' });
    expect(shownSaveState({ kind: 'unsaved', reason: 'Un visor no puede superar 3 secciones' }, { online: false, pending: 1, replayError: null })).toEqual({
      kind: 'unsaved',
      text: 'No guardado: Un visor no puede superar 3 secciones',
    });
  });
});
