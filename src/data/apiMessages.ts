// How an HTTP answer becomes the message the UI shows; shared by the tab's API client and
// the data worker's, which cannot import the tab's settings.

export const NETWORK_ERROR_MESSAGE = 'No se pudo conectar con el servidor. Revise su conexión.';

/** A proxy's 502/503/504 means the server is unreachable, not that it refused. */
export function isUnreachableStatus(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

/** The server's `{message}`, or a generic text naming the status. */
export function serverMessage(status: number, payload: unknown): string {
  return payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string'
    ? payload.message
    : `Error ${status} del servidor`;
}
