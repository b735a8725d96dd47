// Where the client finds the server. Each is a build-time setting (VITE_*), defaulting to
// the origin the app was served from.
function wsOrigin(): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export const settings = {
  apiBase: trimSlash(import.meta.env.VITE_API_BASE ?? '/api'),
  positionsBase: trimSlash(import.meta.env.VITE_POSITIONS_BASE ?? import.meta.env.VITE_API_BASE ?? '/api'),
  marketSocketUrl: import.meta.env.VITE_MARKET_WS_URL ?? `${wsOrigin()}/ws/market`,
  positionsSocketUrl: import.meta.env.VITE_POSITIONS_WS_URL ?? `${wsOrigin()}/ws/positions`,
  appVersion: __APP_VERSION__,
  buildId: __BUILD_ID__,
};
