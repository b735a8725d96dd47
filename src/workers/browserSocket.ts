// OpenSocket on the browser's WebSocket (worker or tab).
import type { OpenSocket } from './socketTransport';

export const openBrowserSocket: OpenSocket = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.onopen = () => handlers.open();
  socket.onmessage = (event) => handlers.message(typeof event.data === 'string' ? event.data : '');
  socket.onclose = (event) => handlers.close(event.code, event.reason);
  return socket;
};
