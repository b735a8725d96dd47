// What the positions section says where tests read it too (plain text, no components), and the
// admin's Posiciones page with it.
import type { PositionsStatus } from '../../../../data/store';

/** The spec's positions connection states, as the section and the admin's page say them. */
export const POSITIONS_STATE_TEXT: Record<PositionsStatus['state'], string> = {
  idle: 'Inactiva',
  connecting: 'Conectando…',
  open: 'Conectada',
  closed: 'Cerrada; reconectando…',
  error: 'Error de conexión',
};

/** A visitor of a public visor, instead of the owner's positions (and no broker login). */
export const PRIVATE_POSITIONS = 'Las posiciones son privadas: solo las ve el dueño del visor.';

/** A Primary API session the server no longer keeps (it restarted): the password is asked again. */
export const SESSION_ENDED = 'La sesión de broker terminó (el servidor ya no la tiene): ingrese la contraseña otra vez.';

/** Offline (issue 21): what the section says instead of the connection's error; it asks again when the connection returns. */
export const POSITIONS_OFFLINE = 'Sin conexión: las posiciones se verán al volver la conexión.';
