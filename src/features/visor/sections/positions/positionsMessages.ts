// What the positions section says where tests read it too (plain text, no components).

/** A visitor of a public visor, instead of the owner's positions (and no broker login). */
export const PRIVATE_POSITIONS = 'Las posiciones son privadas: solo las ve el dueño del visor.';

/** A Primary API session the server no longer keeps (it restarted): the password is asked again. */
export const SESSION_ENDED = 'La sesión de broker terminó (el servidor ya no la tiene): ingrese la contraseña otra vez.';
