// The sections a visor screen shows and edits, and their autosave (issue 18). The tab keeps
// a draft over the last version the server confirmed (the base); every change is saved with
// update_secciones about a second later, through the data worker (If-Match: the base's
// version). The worker stores every answer in Dexie, so other tabs of the visor see the
// change; a newer version arriving from Dexie while this tab has unsaved changes is merged by
// the 412 rule (lib/sectionMerge.ts): different sections, both changes stay; the same one,
// the newer server state wins and a toast says so.
//
// A change must outlive the tab that made it (reload, closed tab: the autosave's timer dies
// with the tab, and the worker may die with the last tab): every change is also kept in Dexie
// at once as the visor's pending draft (data/visorDrafts.ts: base, version, draft), cleared when
// the server has it. When the screen opens, a pending draft of the visor becomes this tab's
// draft (lib/sectionMerge.ts resumeDraft: moved by the 412 rule onto a newer server version,
// dropped when the server already has it) and is saved at once. Changes made before that
// lookup answers wait for it. On pagehide a pending save leaves at once too, but nothing
// depends on it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { keepVisorDraft, readVisorDraft, settleVisorDraft } from '../../data/visorDrafts';
import { dataWorker } from '../../data/worker';
import { rebaseDraft, resumeDraft, sameJson } from '../../lib/sectionMerge';
import type { Section } from '../../protocol/workspace';
import { showToast } from '../../ui/toast';
import { errorMessage } from '../workspace/workerCalls';
import { SERVER_WON_MESSAGE, VISOR_GONE_MESSAGE } from './saveMessages';

/** How long after the last change the sections are saved. */
export const SAVE_DELAY_MS = 1000;
/** How long after a failed save it is tried again. */
export const RETRY_DELAY_MS = 5000;

export { SERVER_WON_MESSAGE };

const warnNotKept = (error: unknown) => console.warn('The visor’s pending change could not be kept', error);

/** The server deleted the visor (410: another tab or device did): nothing of it will ever save. */
function isGone(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, status } = error as { code?: unknown; status?: unknown };
  return code === 'gone' || status === 410;
}

function worthRetrying(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return true;
  if (isGone(error)) return false;
  const { code, status } = error as { code?: unknown; status?: unknown };
  return code === 'network' || code === 'server' || typeof status !== 'number' || status === 0 || status >= 500;
}

import type { SaveState } from './saveStateText';
export type { SaveState };

interface Base {
  sections: Section[];
  version: number;
  /** The cache's offline revision at that version (shared/db.ts LocalRevision). */
  localRev?: number | undefined;
}

/** The server's side of the visor as cached (null while not there). */
export interface ServerSections {
  secciones: Section[];
  version: number;
  /** Offline changes the worker's outbox applied to the cache over `version` (issue 21). */
  localRev?: number | undefined;
}

type Update = (sections: Section[]) => Section[];

/** Whether the cache's record is newer than what the tab stands on: a later version, or an offline change over the same one. */
function newer(next: ServerSections, current: Base): boolean {
  if (next.version !== current.version) return next.version > current.version;
  return (next.localRev ?? 0) > (current.localRev ?? 0);
}

/**
 * `userId`: whose cache the visor is in (the pending draft is kept for them; null keeps none).
 * `blockedReason`: why saving is off now (offline), or null.
 */
export function useVisorSections(visorId: string, userId: string | null, server: ServerSections | null, blockedReason: string | null) {
  const [draft, setDraft] = useState<Section[] | null>(server?.secciones ?? null);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'saved' });
  const base = useRef<Base | null>(server ? { sections: server.secciones, version: server.version, localRev: server.localRev } : null);
  const draftRef = useRef<Section[] | null>(draft);
  const latestServer = useRef(server);
  const inFlight = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const blockedRef = useRef(blockedReason);
  const flushRef = useRef<() => Promise<void>>(async () => {});
  /** The draft the server refused: not sent again until it changes. */
  const failedDraft = useRef<Section[] | null>(null);
  /** The server answered 410: the visor is deleted, no change of it is sent or kept again. */
  const gone = useRef(false);
  /** This screen, as the maker of the visor's pending draft. */
  const [editor] = useState(() => crypto.randomUUID());
  /** Until the pending draft is looked up: changes wait in `queued`. */
  const restoring = useRef(true);
  const queued = useRef<Update[]>([]);
  const changeRef = useRef<(update: Update) => void>(() => {});

  const schedule = useCallback((delay: number = SAVE_DELAY_MS) => {
    if (timer.current != null) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flushRef.current(), delay);
  }, []);

  const setBoth = (sections: Section[]) => {
    draftRef.current = sections;
    setDraft(sections);
  };

  const dirty = () => base.current != null && draftRef.current !== base.current.sections;

  /**
   * Keeps this tab's draft as the visor's pending one, at once; with nothing pending, clears
   * this screen's record, or one whose sections the server has (`confirmed` adds sections the
   * server answered in place of a draft).
   */
  const persist = useCallback(
    (confirmed: readonly Section[][] = []) => {
      const from = base.current;
      const sections = draftRef.current;
      if (!userId || !from || !sections || gone.current) return;
      const write = sameJson(sections, from.sections)
        ? settleVisorDraft(userId, visorId, { editor, confirmed: [from.sections, ...confirmed] })
        : keepVisorDraft({ userId, visor_id: visorId, base: from.sections, version: from.version, draft: sections, editor, savedAt: Date.now() });
      write.catch(warnNotKept);
    },
    [userId, visorId, editor],
  );

  /** A newer version from Dexie (another tab, a re-read, an offline change): taken, with this tab's unsaved change merged in. */
  const reconcile = useCallback(
    (next: ServerSections | null) => {
      if (!next || inFlight.current) return;
      const current = base.current;
      // The same version with a higher local revision: a change kept offline by the worker's
      // outbox (issue 21, another tab's), applied to the cache before the server has it.
      if (current && !newer(next, current)) return;
      base.current = { sections: next.secciones, version: next.version, localRev: next.localRev };
      if (!current || draftRef.current == null) {
        setBoth(next.secciones);
        return;
      }
      const rebased = rebaseDraft(current.sections, draftRef.current, next.secciones);
      // Nothing of it left over the newer version (another tab saved this very change): not dirty.
      setBoth(sameJson(rebased.sections, next.secciones) ? next.secciones : rebased.sections);
      if (rebased.lost) showToast(SERVER_WON_MESSAGE, 'warning');
      // The pending draft, if any, now stands on the newer version (or is gone with it).
      persist();
    },
    [persist],
  );

  const flush = useCallback(async () => {
    timer.current = null;
    const from = base.current;
    const sent = draftRef.current;
    if (!from || !sent || inFlight.current || gone.current) return;
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
      base.current = { sections: saved, version: answer.visor.version, localRev: answer.visor.localRev };
      // Changed again while saving: those changes stay on top of what was saved.
      const rebased = rebaseDraft(sent, draftRef.current ?? sent, saved);
      setBoth(rebased.sections);
      if (answer.outcome === 'server-won' || rebased.lost) showToast(SERVER_WON_MESSAGE, 'warning');
      setSaveState({ kind: 'saved' });
      // Saved (or the server won over it): the pending draft goes, or stands on the new version.
      persist([sent]);
    } catch (error) {
      setSaveState({ kind: 'unsaved', reason: errorMessage(error) });
      // No answer, or the server failed: try again. A refusal (400, 403…) waits for the next change.
      retry = worthRetrying(error);
      if (!retry) {
        failedDraft.current = sent;
        // The header's state scrolls away with the page: a refusal (a quota, a check) is also
        // said where the user is looking. A retried failure is not, it may still get through.
        if (!isGone(error)) showToast(`No se guardó el visor: ${errorMessage(error)}`, 'error');
        // Refused: not to be sent again by the next screen either.
        if (userId) settleVisorDraft(userId, visorId, { editor, confirmed: [sent] }).catch(warnNotKept);
      }
      if (isGone(error)) {
        // Deleted in another tab or device: the worker forgot the visor (the screen shows it
        // deleted) and its pending draft. One toast; nothing of it is saved or kept again.
        gone.current = true;
        showToast(VISOR_GONE_MESSAGE, 'error');
      }
    } finally {
      inFlight.current = false;
    }
    if (gone.current) return;
    reconcile(latestServer.current);
    if (dirty() && draftRef.current !== failedDraft.current) schedule(retry ? RETRY_DELAY_MS : SAVE_DELAY_MS);
  }, [visorId, userId, editor, reconcile, schedule, persist]);

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

  // Leaving the screen, or the page (pagehide: a reload, a closed tab): save what is pending at
  // once. The pending draft in Dexie covers the case where this does not get through.
  useEffect(() => {
    const saveNow = () => {
      if (timer.current != null) {
        clearTimeout(timer.current);
        void flushRef.current();
      }
    };
    window.addEventListener('pagehide', saveNow);
    return () => {
      window.removeEventListener('pagehide', saveNow);
      saveNow();
    };
  }, []);

  // Opening: a pending draft of this visor (this tab before a reload, a closed tab) becomes
  // this tab's draft and is saved; then the changes made meanwhile apply.
  useEffect(() => {
    restoring.current = true;
    let live = true;
    const done = () => {
      if (!live) return;
      restoring.current = false;
      const updates = queued.current;
      queued.current = [];
      for (const update of updates) changeRef.current(update);
    };
    if (!userId) {
      done();
      return;
    }
    readVisorDraft(userId, visorId)
      .then((stored) => {
        if (!live || !stored) return;
        const current = base.current ?? { sections: stored.base, version: stored.version };
        const resumed = resumeDraft(stored, current);
        if (!resumed.pending) {
          if (resumed.lost) showToast(SERVER_WON_MESSAGE, 'warning');
          // Unless a tab replaced it meanwhile.
          settleVisorDraft(userId, visorId, { editor, confirmed: [stored.draft] }).catch(warnNotKept);
          return;
        }
        base.current = resumed.base;
        setBoth(resumed.draft);
        persist();
        setSaveState({ kind: 'saving' });
        schedule(0);
      })
      .catch((error: unknown) => console.warn('The visor’s pending change could not be read', error))
      .finally(done);
    return () => {
      live = false;
    };
  }, [userId, visorId, editor, persist, schedule]);

  /** Changes the sections; the change is kept in Dexie at once and saved about a second later. */
  const change = useCallback(
    (update: Update) => {
      if (gone.current) return;
      if (restoring.current) {
        queued.current.push(update);
        return;
      }
      const current = draftRef.current;
      if (!current) return;
      const next = update(current);
      if (next === current) return;
      setBoth(next);
      persist();
      setSaveState({ kind: 'saving' });
      schedule();
    },
    [schedule, persist],
  );

  useEffect(() => {
    changeRef.current = change;
  }, [change]);

  return { sections: draft, change, saveState };
}
