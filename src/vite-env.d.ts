/// <reference types="vite/client" />

/** package.json version, injected at build time. */
declare const __APP_VERSION__: string;
/** Unique per build (version and build time): names the data SharedWorker. */
declare const __BUILD_ID__: string;

interface ImportMetaEnv {
  /** Base of the backend API; default: this origin + /api. */
  readonly VITE_API_BASE?: string;
  /** Base of the positions API; default: the API base. */
  readonly VITE_POSITIONS_BASE?: string;
  /** Market websocket URL; default: this origin's /ws/market. */
  readonly VITE_MARKET_WS_URL?: string;
  /** Positions websocket URL; default: this origin's /ws/positions. */
  readonly VITE_POSITIONS_WS_URL?: string;
  /** Least ms between two ticks batches to one tab; default TAB_BATCH_INTERVAL_MS (one frame). */
  readonly VITE_TAB_BATCH_INTERVAL_MS?: string;
}
