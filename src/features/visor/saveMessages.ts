// What the visor's autosave tells the user, in a module of its own (no imports) so the
// end-to-end tests read the same text the screen shows.

export const SERVER_WON_MESSAGE =
  'Otra pestaña o dispositivo cambió la misma sección del visor: se muestra esa versión y el último cambio de esta pestaña no se guardó.';

/** The autosave answered 410: the visor was deleted elsewhere while this screen had it open. */
export const VISOR_GONE_MESSAGE = 'El visor se borró en otra pestaña o dispositivo: el último cambio no se guardó.';

/** The screen of a visor whose record went away while it was open (deleted here or elsewhere). */
export const VISOR_DELETED = 'Este visor se borró';
export const VISOR_DELETED_HINT = 'Se borró en esta u otra pestaña, o en otro dispositivo.';
