// The few things the market socket needs from a websocket, so it runs the same on the
// browser's WebSocket, on the `ws` package (API tests) and on a fake (unit tests).
export interface SocketHandlers {
  open(): void;
  message(data: string): void;
  close(code: number, reason: string): void;
}

export interface SocketHandle {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type OpenSocket = (url: string, handlers: SocketHandlers) => SocketHandle;
