import { useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { UNSAFE_DataRouterContext as DataRouterContext } from 'react-router-dom';

type Phase = 'idle' | 'running' | 'done';

/**
 * Whether a navigation is under way, read from the router itself. The router hands its state to
 * React inside startTransition, and a transition render can be held back (interrupted by the
 * live prices' urgent renders on a busy machine, or by a suspended component) until its loaders
 * end: the bar would then never show. A store subscription renders it at once.
 */
function useNavigationBusy(): boolean {
  const router = useContext(DataRouterContext)?.router;
  if (!router) throw new Error('NavigationProgress is drawn inside a data router');
  return useSyncExternalStore(router.subscribe, () => router.state.navigation.state !== 'idle');
}

/** Thin bar at the top of the page while a navigation loads; no spinner (spec section 2). */
export function NavigationProgress() {
  const busy = useNavigationBusy();
  const [phase, setPhase] = useState<Phase>('idle');
  const [wasBusy, setWasBusy] = useState(busy);
  // A navigation starting or ending sets the phase while rendering (React's pattern for state
  // that follows a prop), not in an effect that would render twice.
  if (busy !== wasBusy) {
    setWasBusy(busy);
    setPhase(busy ? 'running' : 'done');
  }

  useEffect(() => {
    if (phase !== 'done') return;
    const timer = setTimeout(() => setPhase('idle'), 400);
    return () => clearTimeout(timer);
  }, [phase]);

  return (
    <div
      className={`nav-progress nav-progress--${phase}`}
      role="progressbar"
      aria-label="Cargando"
      aria-hidden={phase === 'idle'}
      aria-busy={phase === 'running'}
    />
  );
}
