// The sections a visor screen shows and edits, and their autosave (issue 18). The tab keeps
// a draft over the last version the server confirmed (the base); every change is saved with
// update_secciones about a second later, through the data worker (If-Match: the base's
// version). The worker stores every answer in Dexie, so other tabs of the visor see the
// change; a newer version arriving from Dexie while this tab has unsaved changes is merged by
// the 412 rule (lib/sectionMerge.ts): different sections, both changes stay; the same one,
// the newer server state wins and a toast says so.
import { useCallback, useEffect, useRef, useState } from 'react';
import { dataWorker } from '../../data/worker';
import { rebaseDraft } from '../../lib/sectionMerge';
import type { Section } from '../../protocol/workspace';
import { showToast } from '../../ui/toast';
import { errorMessage } from '../workspace/workerCalls';
import { SERVER_WON_MESSAGE } from './saveMessages';

/** How long after the last change the sections are saved. */
export const SAVE_DELAY_MS = 1000;
/** How long after a failed save it is tried again. */
export const RETRY_DELAY_MS = 5000;

export { SERVER_WON_MESSAGE };

function worthRetrying(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return true;
  const { code, status } = error as { code?: unknown; status?: unknown };
  return code === 'network' || code === 'server' || typeof status !== 'number' || status === 0 || status >= 500;
}

export type SaveState = { kind: 'saved' } | { kind: 'saving' } | { kind: 'unsaved'; reason: string };

interface Base {
  sections: Section[];
  version: number;
}

/** The server's side of the visor as cached (null while not there). */
export interface ServerSections {
  secciones: Section[];
  version: number;
}

/** `blockedReason`: why saving is off now (offline), or null. */
export function useVisorSections(visorId: string, server: ServerSections | null, blockedReason: string | null) {
  const [draft, setDraft] = useState<Section[] | null>(server?.secciones ?? null);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'saved' });
  const base = useRef<Base | null>(server ? { sections: server.secciones, version: server.version } : null);
  const draftRef = useRef<Section[] | null>(draft);
  const latestServer = useRef(server);
  const inFlight = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const blockedRef = useRef(blockedReason);
  const flushRef = useRef<() => Promise<void>>(async () => {});
  /** The draft the server refused: not sent again until it changes. */
  const failedDraft = useRef<Section[] | null>(null);

  const schedule = useCallback((delay: number = SAVE_DELAY_MS) => {
    if (timer.current != null) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flushRef.current(), delay);
  }, []);

  const setBoth = (sections: Section[]) => {
    draftRef.current = sections;
    setDraft(sections);
  };

  const dirty = () => base.current != null && draftRef.current !== base.current.sections;

  /** A newer version from Dexie (another tab, a re-read): taken, with this tab's unsaved change merged in. */
  const reconcile = useCallback((next: ServerSections | null) => {
    if (!next || inFlight.current) return;
    const current = base.current;
    if (current && next.version <= current.version) return;
    base.current = { sections: next.secciones, version: next.version };
    if (!current || draftRef.current == null) {
      setBoth(next.secciones);
      return;
    }
    const rebased = rebaseDraft(current.sections, draftRef.current, next.secciones);
    setBoth(rebased.sections);
    if (rebased.lost) showToast(SERVER_WON_MESSAGE, 'warning');
  }, []);

  const flush = useCallback(async () => {
    timer.current = null;
    const from = base.current;
    const sent = draftRef.current;
    if (!from || !sent || inFlight.current) return;
    if (sent === from.sections) {
      setSaveState({ kind: 'saved' });
      return;
    }
    if (blockedRef.current != null) {
      setSaveState({ kind: 'unsaved', reason: blockedRef.current });
      return;
    }
    inFlight.current = true;
    setSaveState({ kind: 'saving' });
    let retry = false;
    try {
      const answer = await dataWorker().saveSecciones(visorId, { base: from.sections, sections: sent, version: from.version });
      const saved = answer.visor.secciones;
      base.current = { sections: saved, version: answer.visor.version };
      // Changed again while saving: those changes stay on top of what was saved.
      const rebased = rebaseDraft(sent, draftRef.current ?? sent, saved);
      setBoth(rebased.sections);
      if (answer.outcome === 'server-won' || rebased.lost) showToast(SERVER_WON_MESSAGE, 'warning');
      setSaveState({ kind: 'saved' });
    } catch (error) {
      setSaveState({ kind: 'unsaved', reason: errorMessage(error) });
      // No answer, or the server failed: try again. A refusal (400, 403…) waits for the next change.
      retry = worthRetrying(error);
      if (!retry) failedDraft.current = sent;
    } finally {
      inFlight.current = false;
    }
    reconcile(latestServer.current);
    if (dirty() && draftRef.current !== failedDraft.current) schedule(retry ? RETRY_DELAY_MS : SAVE_DELAY_MS);
  }, [visorId, reconcile, schedule]);

  useEffect(() => {
    flushRef.current = flush;
    blockedRef.current = blockedReason;
  }, [flush, blockedReason]);

  useEffect(() => {
    latestServer.current = server;
    reconcile(server);
  }, [server, reconcile]);

  // Back online with changes pending: save them.
  useEffect(() => {
    if (blockedReason == null && dirty()) schedule(0);
  }, [blockedReason, schedule]);

  // Leaving the screen: save what is pending at once.
  useEffect(
    () => () => {
      if (timer.current != null) {
        clearTimeout(timer.current);
        void flushRef.current();
      }
    },
    [],
  );

  /** Changes the sections; the change is saved about a second later. */
  const change = useCallback(
    (update: (sections: Section[]) => Section[]) => {
      const current = draftRef.current;
      if (!current) return;
      const next = update(current);
      if (next === current) return;
      setBoth(next);
      setSaveState({ kind: 'saving' });
      schedule();
    },
    [schedule],
  );

  return { sections: draft, change, saveState };
}
