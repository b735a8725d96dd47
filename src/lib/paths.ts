// Named routes of the spec's route table (section 2). Links are built from names, so a
// path changes in one place.
export const paths = {
  'auth-signin': () => '/auth/signin',
  home: () => '/',
  test: () => '/test',
  'visor-modo-edicion': (id: string) => `/visor/${encodeURIComponent(id)}/edit`,
  'visor-modo-publico': (id: string) => `/visor/${encodeURIComponent(id)}/public`,
  'config-profile': () => '/config/profile',
  posiciones: () => '/posiciones',
  users: () => '/users',
  'home-admin': () => '/admin',
  'datacenter-tv': () => '/admin/datacenter/tv',
  'datacenter-rofex': () => '/admin/datacenter/rofex',
  'logs-operadores': () => '/admin/datacenter/logs-operadores',
  // The spec's form: the search text is the whole query string.
  search: (text: string) => `/backend/pages/generic/search?${encodeURIComponent(text)}`,
} as const;

export type RouteName = keyof typeof paths;
