// What the visor's autosave tells the user, in a module of its own (no imports) so the
// end-to-end tests read the same text the screen shows.

export const SERVER_WON_MESSAGE =
  'Otra pestaña o dispositivo cambió la misma sección del visor: se muestra esa versión y el último cambio de esta pestaña no se guardó.';
