// The visor screen (issue 18): `/visor/{id}/edit` (visor-modo-edicion) and `/visor/{id}` or
// `/visor/{id}/public` (visor-modo-publico). The visor shows at once from Dexie when this
// browser saw it before, then the data worker reads it from the server; the server says who
// owns it (verify_owner_visor). Someone who does not own it is sent from edit mode to public
// mode when it is public, and gets the not-found state when it is not. An own visor whose
// record goes while it is open (deleted in this or another tab, or on another device: the
// worker forgets it on the server's 410) shows the deleted state.
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { dataWorker } from '../../data/worker';
import { useVisor } from '../../data/workspace';
import { paths } from '../../lib/paths';
import { isOwnVisor } from '../../protocol/workspace';
import type { VisorRecord } from '../../shared/db';
import { showToast } from '../../ui/toast';
import { useCurrentUser } from '../auth/useCurrentUser';
import { errorMessage } from '../workspace/workerCalls';
import { VISOR_DELETED, VISOR_DELETED_HINT } from './saveMessages';
import { VisorScreen } from './VisorScreen';
import { NEEDS_SERVER_REASON, useOnline } from '../../data/offline';
import './visor.css';

export const VISOR_NOT_FOUND = 'Este visor no existe o no es público';
/** A visor this browser never kept, opened without a connection (issue 21). */
export const VISOR_NOT_OFFLINE = 'Este visor no está disponible sin conexión';

type Load = { state: 'ok' } | { state: 'missing' } | { state: 'offline' } | { state: 'failed'; message: string };

const isNotFound = (error: unknown) => typeof error === 'object' && error !== null && 'status' in error && (error.status === 404 || error.status === 403);
/** No answer from the server (shared/errors.ts's 'network' code): offline, not a refusal. */
const isUnreachable = (error: unknown) => typeof error === 'object' && error !== null && 'code' in error && error.code === 'network';

export function VisorNotFound({
  message = VISOR_NOT_FOUND,
  hint = 'Revise el enlace, o pídale a su dueño que lo haga público.',
}: {
  message?: string;
  hint?: string;
}) {
  return (
    <section className="page visor-page">
      <div className="card visor-missing" role="alert">
        <h1>{message}</h1>
        <p className="muted">{hint}</p>
      </div>
    </section>
  );
}

export function VisorPage({ mode }: { mode: 'edit' | 'public' }) {
  const { id = '' } = useParams();
  const user = useCurrentUser();
  const online = useOnline();
  const cached = useVisor(user._id, id);
  // useLiveQuery answers the previous visor's record until the new id's query settles: that
  // one is not this visor's (its sections would stay on the screen of the next).
  const record = cached != null && cached.visor_id !== id ? undefined : cached;
  const [load, setLoad] = useState<{ id: string; load: Load } | null>(null);
  const [ownerAnswer, setOwnerAnswer] = useState<{ id: string; owner: boolean | null } | null>(null);
  // The user's own visor this screen showed: when its record goes (deleted in this or another
  // tab, or forgotten by the worker on a 410 or a read without it), the screen says so.
  const [shownOwn, setShownOwn] = useState<string | null>(null);
  const showsOwn = record != null && isOwnVisor(record) && record.owner === user._id;
  if (showsOwn && shownOwn !== id) setShownOwn(id);

  // Read from the server (again when the network comes back); Dexie shows the cached copy meanwhile.
  useEffect(() => {
    let live = true;
    const worker = dataWorker();
    worker.loadVisor(id).then(
      () => live && setLoad({ id, load: { state: 'ok' } }),
      (error: unknown) =>
        live &&
        setLoad({
          id,
          load: isNotFound(error) ? { state: 'missing' } : isUnreachable(error) ? { state: 'offline' } : { state: 'failed', message: errorMessage(error) },
        }),
    );
    worker.verifyOwner(id).then(
      (owner) => live && setOwnerAnswer({ id, owner }),
      () => live && setOwnerAnswer({ id, owner: null }),
    );
    return () => {
      live = false;
    };
  }, [id, online]);

  const seen = record != null;
  useEffect(() => {
    if (seen)
      void dataWorker()
        .visorOpened(id)
        .catch(() => {});
  }, [id, seen]);

  const loaded = load?.id === id ? load.load : null;
  const answered = ownerAnswer?.id === id ? ownerAnswer.owner : undefined;
  // The server's answer; without one (offline), the cached copy of the user's own visor says it.
  const owner = answered ?? (record != null && isOwnVisor(record) && record.owner === user._id);

  if (record === undefined) return <Loading />;
  if (record === null) {
    if (shownOwn === id) return <VisorNotFound message={VISOR_DELETED} hint={VISOR_DELETED_HINT} />;
    if (loaded?.state === 'missing') return <VisorNotFound />;
    if (loaded?.state === 'offline' || (loaded != null && !online))
      return <VisorNotFound message={VISOR_NOT_OFFLINE} hint="Este navegador no lo abrió antes. Se abrirá cuando vuelva la conexión." />;
    if (loaded?.state === 'failed') return <VisorNotFound message={`No se pudo abrir el visor: ${loaded.message}`} />;
    return <Loading />;
  }
  if (mode === 'edit' && answered === false) {
    return record.public ? <Navigate to={paths['visor-modo-publico'](id)} replace /> : <VisorNotFound />;
  }
  if (mode === 'edit' && answered === undefined && !owner) return <Loading />;
  return <OpenVisor key={id} record={record} owner={owner} editMode={mode === 'edit' && owner} offline={!online} />;
}

function Loading() {
  return (
    <section className="page visor-page">
      <p className="muted">Cargando…</p>
    </section>
  );
}

function OpenVisor({ record, owner, editMode, offline }: { record: VisorRecord; owner: boolean; editMode: boolean; offline: boolean }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const visorId = record.visor_id;

  const run = (action: () => Promise<void>) => {
    setBusy(true);
    action()
      .catch((error: unknown) => showToast(errorMessage(error), 'error'))
      .finally(() => setBusy(false));
  };

  const togglePublic = (value: boolean) =>
    run(async () => {
      await dataWorker().setVisorPublic(visorId, value);
      if (!value) {
        showToast('El visor ya no es público');
        return;
      }
      const link = new URL(paths['visor-modo-publico'](visorId), window.location.origin).href;
      if (offline) {
        // Kept by the worker's outbox (issue 21): the link works once the server has it.
        showToast(`El visor será público al volver la conexión. Enlace: ${link}`, 'success');
        return;
      }
      try {
        await navigator.clipboard.writeText(link);
        showToast(`El visor es público. Enlace copiado: ${link}`, 'success');
      } catch {
        showToast(`El visor es público. Enlace: ${link}`, 'success');
      }
    });

  const clone = () =>
    run(async () => {
      const { visorId: copy } = await dataWorker().cloneVisor(visorId);
      showToast('Visor clonado: la copia está en su espacio de trabajo', 'success');
      void navigate(paths['visor-modo-edicion'](copy));
    });

  const toggleFav = () =>
    run(async () => {
      await dataWorker().toggleVisorFavourite(visorId);
    });

  return (
    <VisorScreen
      record={record}
      owner={owner}
      editMode={editMode}
      disabledReason={null}
      serverReason={offline ? NEEDS_SERVER_REASON : null}
      busy={busy}
      onTogglePublic={togglePublic}
      onClone={clone}
      onToggleFav={toggleFav}
    />
  );
}
