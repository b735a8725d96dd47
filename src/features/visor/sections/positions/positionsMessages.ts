// What the positions section says where tests read it too (plain text, no components).

/** A visitor of a public visor, instead of the owner's positions (and no broker login). */
export const PRIVATE_POSITIONS = 'Las posiciones son privadas: solo las ve el dueño del visor.';
