// Every HTTP route of the server, in one table: method, path as the server registers it (with
// its parameters), who may call it, the zod schemas of its body, query and success answer
// where the protocol has them, and whether it is a websocket. The README's API section
// describes these routes; this table is the authoritative list. tests/api/shapes.test.ts
// checks that the server registers exactly these routes (none missing, none extra) and each
// answer against its schema; tests/api/fuzz.test.ts sends generated requests to every one.
import type { z } from './zod';
import {
  AdminLogsResponse,
  AdminUserResponse,
  AdminUsersResponse,
  LogExportQuery,
  SignedInUsersResponse,
  ChangePasswordRequest,
  ChangePasswordResponse,
  CreateUserRequest,
  DeleteUserResponse,
  LogQuery,
  ProfileResponse,
  UpdateProfileRequest,
  UpdateUserRequest,
} from './admin';
import { CheckTokenRequest, CheckTokenResponse, LoginRequest, LoginResponse, LogoutRequest, LogoutResponse } from './auth';
import { AdminPositionsResponse, ConnectRequest, ConnectResponse, FillsResponse, PositionsResponse, WatchRequest, WatchResponse } from './broker';
import {
  ExpirationRequest,
  ExpirationResponse,
  FeedRateRequest,
  FeedResponse,
  FeedsResponse,
  FeedSymbolsResponse,
  FormulaRequest,
  FormulaSymbolsResponse,
  HistoryRequest,
  HistoryResponse,
  InstrumentsResponse,
  IntradayRequest,
  IntradayResponse,
  MarketSocketsResponse,
  SearchRequest,
  SearchResponse,
} from './market';
import {
  CheckOptionRequest,
  DeleteVisorResponse,
  FavResponse,
  FavsResponse,
  FolderTree,
  FolderTreeResponse,
  NewVisorRequest,
  NewVisorResponse,
  PublicVisorResponse,
  ReadVisorResponse,
  OwnerResponse,
  SaveTreeResponse,
  ToggleFavResponse,
  UpdateSeccionesRequest,
  UpdateVisorRequest,
  UpdateVisorResponse,
  VisorListResponse,
  VisorResponse,
} from './workspace';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone; a signed-in user (`Authorization: Bearer <token>`, else 401);
 * an admin (else 403). A socket's upgrade needs no token: its first message authenticates it.
 */
export type RouteAuth = 'none' | 'user' | 'admin';

/**
 * What a path parameter names: the signed-in user's own id (another user's id is 403), a
 * visor id, a user id of the admin's choice, a broker account, a feed, an emoji image file.
 */
export type RouteParam = 'self' | 'visor' | 'user' | 'account' | 'feed' | 'emojiFile';

export interface Route {
  method: RouteMethod;
  /** As the server registers it, parameters as `:name`. */
  path: string;
  auth: RouteAuth;
  /** Each parameter of the path and what it names. */
  params?: Readonly<Record<string, RouteParam>>;
  /** The JSON body it validates; a route without one ignores any body sent. */
  body?: z.ZodType;
  /** The query string it validates. */
  query?: z.ZodType;
  /** Its success answer; absent when it is not JSON (204, an image, a socket). */
  response?: z.ZodType;
  /** When the answer depends on who asks, the narrower answer each caller gets (`response` is their union). */
  answers?: readonly z.ZodType[];
  /** A websocket: its messages are described in src/protocol/socket.ts and market.ts/broker.ts. */
  socket?: boolean;
}

const SELF = { id: 'self' } as const;
const VISOR = { id: 'visor' } as const;
const SELF_AND_VISOR = { id: 'self', id2: 'visor' } as const;
const ACCOUNT = { account: 'account' } as const;
const FEED = { name: 'feed' } as const;

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/api/health', auth: 'none' },
  { method: 'POST', path: '/api/login', auth: 'none', body: LoginRequest, response: LoginResponse },
  { method: 'POST', path: '/api/checkToken', auth: 'none', body: CheckTokenRequest, response: CheckTokenResponse },
  { method: 'POST', path: '/api/logout', auth: 'user', body: LogoutRequest, response: LogoutResponse },

  // The folder tree: 304 without a body when If-None-Match names the current version; If-Match on PUT.
  { method: 'GET', path: '/api/visores/:id/folders', auth: 'user', params: SELF, response: FolderTreeResponse },
  { method: 'PUT', path: '/api/visores/:id/folders', auth: 'user', params: SELF, body: FolderTree, response: SaveTreeResponse },
  { method: 'GET', path: '/api/visores/:id', auth: 'user', params: SELF, response: VisorListResponse },
  // The whole visor for its owner, the public fields only for anyone else.
  {
    method: 'GET',
    path: '/api/visores/:id/get',
    auth: 'user',
    params: VISOR,
    response: ReadVisorResponse,
    answers: [VisorResponse, PublicVisorResponse],
  },
  { method: 'POST', path: '/api/visores/:id/new', auth: 'user', params: SELF, body: NewVisorRequest, response: NewVisorResponse },
  { method: 'PUT', path: '/api/visores/:id', auth: 'user', params: VISOR, body: UpdateVisorRequest, response: UpdateVisorResponse },
  { method: 'PUT', path: '/api/visores/:id/update_secciones', auth: 'user', params: VISOR, body: UpdateSeccionesRequest, response: VisorResponse },
  { method: 'PUT', path: '/api/visores/:id/check_option', auth: 'user', params: VISOR, body: CheckOptionRequest, response: VisorResponse },
  { method: 'DELETE', path: '/api/visores/:id', auth: 'user', params: VISOR, response: DeleteVisorResponse },
  { method: 'PUT', path: '/api/visores/:id/:id2/fav', auth: 'user', params: SELF_AND_VISOR, response: ToggleFavResponse },
  { method: 'GET', path: '/api/visores/:id/:id2/fav', auth: 'user', params: SELF_AND_VISOR, response: FavResponse },
  { method: 'GET', path: '/api/visores/:id/getFavs', auth: 'user', params: SELF, response: FavsResponse },
  { method: 'POST', path: '/api/visores/:id/:id2/clonar', auth: 'user', params: SELF_AND_VISOR, response: NewVisorResponse },
  { method: 'POST', path: '/api/visores/:id/:id2/verify_owner_visor', auth: 'user', params: SELF_AND_VISOR, response: OwnerResponse },

  { method: 'GET', path: '/api/profile', auth: 'user', response: ProfileResponse },
  { method: 'PUT', path: '/api/profile', auth: 'user', body: UpdateProfileRequest, response: ProfileResponse },
  { method: 'PUT', path: '/api/profile/password', auth: 'user', body: ChangePasswordRequest, response: ChangePasswordResponse },

  { method: 'GET', path: '/api/admin/users', auth: 'admin', response: AdminUsersResponse },
  // 201.
  { method: 'POST', path: '/api/admin/users', auth: 'admin', body: CreateUserRequest, response: AdminUserResponse },
  { method: 'PUT', path: '/api/admin/users/:id', auth: 'admin', params: { id: 'user' }, body: UpdateUserRequest, response: AdminUserResponse },
  { method: 'DELETE', path: '/api/admin/users/:id', auth: 'admin', params: { id: 'user' }, response: DeleteUserResponse },
  { method: 'GET', path: '/api/admin/logs', auth: 'admin', query: LogQuery, response: AdminLogsResponse },
  // CSV (text/csv, an attachment named by the day), streamed page by page.
  { method: 'GET', path: '/api/admin/logs/export', auth: 'admin', query: LogExportQuery },
  { method: 'GET', path: '/api/admin/sessions', auth: 'admin', response: SignedInUsersResponse },

  { method: 'POST', path: '/api/visores/search', auth: 'user', body: SearchRequest, response: SearchResponse },
  { method: 'POST', path: '/api/search_symbols_formula', auth: 'user', body: FormulaRequest, response: FormulaSymbolsResponse },
  { method: 'POST', path: '/api/get_expiration_contract', auth: 'user', body: ExpirationRequest, response: ExpirationResponse },
  { method: 'POST', path: '/api/get_intradia', auth: 'user', body: IntradayRequest, response: IntradayResponse },
  { method: 'POST', path: '/api/visores/search/symbol/history', auth: 'user', body: HistoryRequest, response: HistoryResponse },
  { method: 'GET', path: '/api/visores/primary/instruments', auth: 'user', response: InstrumentsResponse },
  { method: 'GET', path: '/api/admin/feeds', auth: 'admin', response: FeedsResponse },
  { method: 'POST', path: '/api/admin/feeds/:name/start', auth: 'admin', params: FEED, response: FeedResponse },
  { method: 'POST', path: '/api/admin/feeds/:name/stop', auth: 'admin', params: FEED, response: FeedResponse },
  { method: 'PUT', path: '/api/admin/feeds/:name', auth: 'admin', params: FEED, body: FeedRateRequest, response: FeedResponse },
  { method: 'GET', path: '/api/admin/feeds/:name/symbols', auth: 'admin', params: FEED, response: FeedSymbolsResponse },
  { method: 'GET', path: '/api/admin/market/sockets', auth: 'admin', response: MarketSocketsResponse },

  { method: 'POST', path: '/api/primary/sessions/connect', auth: 'user', body: ConnectRequest, response: ConnectResponse },
  { method: 'POST', path: '/api/accounts/:account/watch', auth: 'user', params: ACCOUNT, body: WatchRequest, response: WatchResponse },
  { method: 'POST', path: '/api/accounts/:account/watch-fills', auth: 'user', params: ACCOUNT, body: WatchRequest, response: WatchResponse },
  // 202 WarmingUpResponse until the first valuation; 304 without a body when If-None-Match names the etag.
  { method: 'GET', path: '/api/accounts/:account/positions', auth: 'user', params: ACCOUNT, response: PositionsResponse },
  { method: 'GET', path: '/api/accounts/:account/fills', auth: 'user', params: ACCOUNT, response: FillsResponse },
  { method: 'GET', path: '/api/admin/positions', auth: 'admin', response: AdminPositionsResponse },

  // The web manifest with the favourites' shortcuts the page's cookie names (visores_atajos,
  // lib/manifestShortcuts.ts parses it): application/manifest+json, no sign-in, nothing stored.
  { method: 'GET', path: '/app.webmanifest', auth: 'none' },
  // A PNG.
  { method: 'GET', path: '/emoji/apple/64/:file', auth: 'none', params: { file: 'emojiFile' } },
  { method: 'GET', path: '/ws/market', auth: 'none', socket: true },
  { method: 'GET', path: '/ws/positions', auth: 'none', socket: true },
];

/** `METHOD path`, how tests name a route. */
export function routeKey(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}
