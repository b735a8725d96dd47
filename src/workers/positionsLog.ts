// What the positions side of the worker writes in the event log (spec section 8): the
// connection's lines, the accounts' and the REST calls'.

export const POSITIONS_LOG = {
  open: 'Posiciones: conexión abierta',
  authenticated: 'Posiciones: autenticado',
  noToken: 'Posiciones: no hay sesión iniciada; se cierra la conexión',
  socketError: 'Posiciones: error de websocket',
  closed: (code: number, delayMs: number) => `Posiciones: conexión cerrada (código ${code}); reintento en ${delayMs} ms`,
  disconnected: 'Posiciones: desconectado',
  subscribed: (symbol: string) => `Posiciones: suscripto a ${symbol}`,
  unsubscribed: (symbol: string) => `Posiciones: desuscripto de ${symbol}`,
  serverError: (message: string) => `Posiciones: el servidor informó un error: ${message}`,
  parseError: 'Posiciones: error al parsear el mensaje',
  unknownPush: (account: string) => `Posiciones: mensaje de tipo desconocido para la cuenta ${account}`,
  emptyRest: (account: string) => `Posiciones: la consulta REST de la cuenta ${account} no trajo datos; se conserva la foto anterior`,
  fillsFailed: (account: string, message: string) => `Posiciones: no se pudieron leer los fills de la cuenta ${account}: ${message}`,
  restFailed: (account: string, message: string) => `Posiciones: falló la consulta REST de la cuenta ${account}: ${message}`,
} as const;
