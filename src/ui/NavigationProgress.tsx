import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router-dom';

type Phase = 'idle' | 'running' | 'done';

/** Thin bar at the top of the page while a navigation loads; no spinner (spec section 2). */
export function NavigationProgress() {
  const busy = useNavigation().state !== 'idle';
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    if (busy) {
      setPhase('running');
      return;
    }
    setPhase((current) => (current === 'running' ? 'done' : current));
    const timer = setTimeout(() => setPhase('idle'), 400);
    return () => clearTimeout(timer);
  }, [busy]);

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
