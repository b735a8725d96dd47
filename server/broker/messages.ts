// What the broker routes and socket tell the user, in the spec's Spanish.
export const BROKER_MESSAGES = {
  sessionNotFound: 'La sesión de broker no existe',
  accountNotFound: (account: string) => `La cuenta ${account} no existe o no es suya`,
  notWatched: (account: string) => `La cuenta ${account} no está siendo observada: llame antes a /watch`,
  fillsNotWatched: (account: string) => `Los fills de la cuenta ${account} no están siendo observados: llame antes a /watch-fills`,
  badUrl: 'La dirección del broker debe ser sim:// o una URL http(s)',
  urlNotAllowed: 'La dirección del broker no está permitida: use sim:// o una de las direcciones de broker que habilitó el administrador',
  privateAddress: 'La dirección del broker no está permitida: apunta a una red privada o local',
  // What the broker answered is not repeated (it could be any server's answer); the detail goes to the server log.
  brokerRefused: 'El broker no aceptó el usuario o la contraseña',
  brokerUnreachable: 'No se pudo conectar con el broker',
  // A Primary API broker without rest/accounts (it is not in the exchange's documentation).
  accountNeeded: 'El broker no informa las cuentas del usuario: indique la cuenta (por ejemplo REM2747) al conectar',
  accountRefused: (account: string) => `El broker no reconoce la cuenta ${account}: revise el nombre de la cuenta e intente de nuevo`,
  ownerTimeout: 'El servidor que tiene la sesión de broker no respondió a tiempo; intente de nuevo',
  storeUnavailable: 'No se pudo consultar el estado de las sesiones de broker; intente de nuevo',
  sessionGone: (account: string) =>
    `La sesión de broker de la cuenta ${account} terminó (el servidor que la tenía se detuvo): conecte una sesión nueva y observe la cuenta otra vez`,
  subscribeFailed: (account: string) => `No se pudo suscribir a la cuenta ${account}; intente de nuevo`,
} as const;
