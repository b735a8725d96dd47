// What sign-in and session checks tell the user (over HTTP and on the sockets), in the spec's Spanish.
export const AUTH_MESSAGES = {
  invalidCredentials: 'Usuario o contraseña incorrectos',
  blocked: (minutes: number) => `Demasiados intentos fallidos. Vuelva a intentar en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
  addressBlocked: (minutes: number) => `Demasiados intentos fallidos desde esta red. Vuelva a intentar en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
  accountBlocked: (minutes: number) =>
    `Demasiados intentos con una contraseña actual incorrecta. Vuelva a intentar en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
  busy: (seconds: number) =>
    `El servidor está verificando muchas contraseñas a la vez. Vuelva a intentar en ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}.`,
  userRequests: (seconds: number) =>
    `Demasiadas solicitudes seguidas de este usuario. Vuelva a intentar en ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}.`,
  noToken: 'Falta el token de sesión. Inicie sesión.',
  badToken: 'La sesión expiró o no es válida. Inicie sesión de nuevo.',
} as const;
