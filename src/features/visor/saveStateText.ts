// The visor's save state as its header says it. Saved means the server has it: a change the
// worker's outbox keeps (offline, or while the server fails its replay) is counted as not sent,
// with why, in every tab of the browser, since they all read the same outbox count.

/** What the autosave of this screen knows (useVisorSections). */
export type SaveState = { kind: 'saved' } | { kind: 'saving' } | { kind: 'unsaved'; reason: string };

/** What the data worker knows: the server reachable, the changes its outbox keeps, and the server's failure of their replay. */
export interface OutboxState {
  online: boolean;
  pending: number;
  replayError: string | null;
}

export interface ShownSaveState {
  kind: 'saved' | 'saving' | 'unsent' | 'unsaved';
  text: string;
}

export function unsentText(count: number, why: string): string {
  return `${count === 1 ? '1 cambio sin enviar' : `${count} cambios sin enviar`}: ${why}`;
}

export function shownSaveState(state: SaveState, outbox: OutboxState): ShownSaveState {
  if (state.kind === 'unsaved') return { kind: 'unsaved', text: `No guardado: ${state.reason}` };
  if (state.kind === 'saving') return { kind: 'saving', text: 'Guardando…' };
  if (outbox.pending === 0) return { kind: 'saved', text: 'Guardado' };
  if (!outbox.online) return { kind: 'unsent', text: unsentText(outbox.pending, 'sin conexión') };
  if (outbox.replayError != null) return { kind: 'unsent', text: unsentText(outbox.pending, `el servidor falla (${outbox.replayError})`) };
  // Reachable and not failing: the outbox is being sent.
  return { kind: 'saving', text: 'Guardando…' };
}
