// The market socket's state, as the board shows it: live, connecting, reconnected (for a
// second after a reconnect, spec section 4) or down (quotes shown are the last known).
import { useMarketStatus, type MarketStatus } from '../../data/store';

export function connectionText(status: MarketStatus): string {
  if (status.state === 'open') return status.reconnected ? 'Reconectado' : 'Conectado';
  if (status.state === 'connecting') return 'Conectando…';
  if (status.state === 'closed') return 'Sin conexión: reconectando…';
  if (status.state === 'unauthorized') return 'Sesión no válida';
  return 'Sin sesión';
}

export function MarketConnection() {
  const status = useMarketStatus();
  return (
    <p className="market-connection" data-state={status.state} role="status" aria-label="Conexión de mercado">
      <span className="market-connection__dot" aria-hidden="true" />
      {connectionText(status)}
    </p>
  );
}
