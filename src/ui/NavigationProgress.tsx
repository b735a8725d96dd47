import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router-dom';

type Phase = 'idle' | 'running' | 'done';

/** Thin bar at the top of the page while a navigation loads; no spinner (spec section 2). */
export function NavigationProgress() {
  const busy = useNavigation().state !== 'idle';
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
