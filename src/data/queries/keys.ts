// Query keys of the tab's server state, one factory per domain; the domain files beside this
// one build their queryOptions on them. Every key of a domain starts with the domain's `all`,
// so invalidating `all` reaches all of them. Keys name no user: the cache is cleared when the
// session changes (client.ts). Kept out of the domain files, which import the tab's API
// client and its build settings, so the keys are tested in node.
export const marketKeys = {
  all: ['market'] as const,
  /** The live search of a text (the search page, the quote board's hits); surrounding blanks do not count. */
  search: (text: string) => [...marketKeys.all, 'search', text.trim()] as const,
  /** The search a submitted text runs once more, apart from the live search of the same text. */
  submittedSearch: (text: string) => [...marketKeys.search(text), 'submitted'] as const,
  /** The whole catalogue (GET /visores/primary/instruments). */
  instruments: () => [...marketKeys.all, 'instruments'] as const,
  /** A symbol's last `limit` daily candles (POST /visores/search/symbol/history). */
  dailyHistory: (symbol: string, limit: number) => [...marketKeys.all, 'dailyHistory', symbol, limit] as const,
};

export const profileKeys = {
  all: ['profile'] as const,
  /** The signed-in user's own record (GET /profile). */
  detail: () => [...profileKeys.all, 'detail'] as const,
};

/** State of the data worker read by the tab (not server state, but read and polled the same way). */
export const workerKeys = {
  all: ['worker'] as const,
  eventLog: () => [...workerKeys.all, 'eventLog'] as const,
};

export const adminKeys = {
  all: ['admin'] as const,
  /** Every account (GET /admin/users). */
  users: () => [...adminKeys.all, 'users'] as const,
};

/** The admin's view of broker sessions (GET /admin/positions). */
export const adminPositionsKeys = {
  all: ['adminPositions'] as const,
  /** The broker sessions of every process, with their accounts and subscribers. */
  sessions: () => [...adminPositionsKeys.all, 'sessions'] as const,
};

/** The admin's status pages (issue 20): feeds, their symbols, processes, sockets, sessions. */
export const adminStatusKeys = {
  all: ['adminStatus'] as const,
  /** Every feed and process (GET /admin/feeds). */
  feeds: () => [...adminStatusKeys.all, 'feeds'] as const,
  /** A feed's wanted symbols with their socket counts (GET /admin/feeds/{name}/symbols). */
  feedSymbols: (name: string) => [...adminStatusKeys.all, 'feedSymbols', name] as const,
  /** The open market sockets of every process (GET /admin/market/sockets). */
  marketSockets: () => [...adminStatusKeys.all, 'marketSockets'] as const,
  /** The signed-in users (GET /admin/sessions). */
  signedIn: () => [...adminStatusKeys.all, 'signedIn'] as const,
};

/** The operator log's filters as the page keeps them (empty text: no filter). */
export interface LogFilters {
  user: string;
  action: string;
  /** YYYY-MM-DD. */
  from: string;
  to: string;
}

/** The operator log (issue 20): each filter's pages. */
export const adminLogsKeys = {
  all: ['adminLogs'] as const,
  /** The pages of one set of filters (GET /admin/logs with cursors). */
  list: (filters: LogFilters, limit: number) => [...adminLogsKeys.all, 'list', filters, limit] as const,
};
