// The spec's route table (section 2). Part of the entry with main.tsx and App.tsx: it puts
// the shells (layout/), the guards and route screens (routes/) and the pages (features/)
// together, so it sits above every layer. Signed-in screens sit under one branch whose
// loader checks the token on every navigation; admin screens add the admin check.
//
// Only what the sign-in page needs is in the entry's chunk (issue 21's budget: 150 KB of
// JavaScript gzip on the sign-in route). Every other screen, and the signed-in layout with its
// header and sidebar, is a route `lazy` chunk: the router fetches it with the route's loader
// and commits the navigation once both are there (the progress bar shows meanwhile), so no
// screen flashes a fallback. The guards stay eager. The router loads a matched route's chunk
// beside the loaders, before the guard's answer, so a signed-out start is sent to sign-in before
// the router starts (signedOutStart): `/` signed out loads the sign-in page's code alone.
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootShell } from './layout/RootShell';
import { BareLayout } from './layout/BareLayout';
import { RouteErrorPage } from './routes/RouteErrorPage';
import { requireAdmin, requireUser, redirectIfSignedIn } from './routes/guards';
import { signedOutStart } from './routes/signInRedirect';
import { getToken } from './data/session';
import { installIntentPrefetch } from './routes/intentPrefetch';
import { signInAction } from './features/auth/signInAction';
import { SignInPage } from './features/auth/SignInPage';
import { NotFoundPage } from './routes/NotFoundPage';
import { StartingScreen } from './routes/StartingScreen';
import { SESSION_ROUTE_ID } from './features/auth/sessionRoute';

const always = () => true;

/**
 * The signed-in layout, and the data worker (one for all tabs: the session's sockets, the
 * workspace in Dexie) started as it loads, while the branch's loader checks the session. A
 * signed-out start (the sign-in page) loads neither; signing in leads here.
 */
async function signedInLayout() {
  const [{ BackendLayout }, { startDataWorker }] = await Promise.all([import('./layout/BackendLayout'), import('./data/worker')]);
  startDataWorker();
  return { Component: BackendLayout };
}

/** A visor screen; the section types' views start loading with it, before the visor is read. */
const visorPage = (mode: 'edit' | 'public') => async () => {
  const [{ VisorPage }, { preloadSectionViews }] = await Promise.all([import('./features/visor/VisorPage'), import('./features/visor/sections/registry')]);
  preloadSectionViews();
  return { element: <VisorPage mode={mode} /> };
};

const dataCenterPage = (name: 'tv' | 'rofex') => async () => {
  const { DataCenterPage } = await import('./features/admin/DataCenterPage');
  return { element: <DataCenterPage key={name} name={name} /> };
};

export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    errorElement: <RouteErrorPage />,
    // Shown while the first navigation's loader checks the session.
    hydrateFallbackElement: <StartingScreen />,
    children: [
      {
        element: <BareLayout />,
        children: [
          {
            path: '/auth/signin',
            id: 'auth-signin',
            loader: redirectIfSignedIn,
            action: signInAction,
            element: <SignInPage />,
          },
        ],
      },
      {
        id: SESSION_ROUTE_ID,
        loader: requireUser,
        shouldRevalidate: always,
        lazy: signedInLayout,
        children: [
          { index: true, id: 'home', lazy: async () => ({ Component: (await import('./features/home/HomePage')).HomePage }) },
          { path: 'test', id: 'test', lazy: async () => ({ Component: (await import('./features/quoteBoard/QuoteBoardPage')).QuoteBoardPage }) },
          { path: 'visor/:id/edit', id: 'visor-modo-edicion', lazy: visorPage('edit') },
          { path: 'visor/:id', id: 'visor-modo-publico', lazy: visorPage('public') },
          { path: 'visor/:id/public', id: 'visor-modo-publico-public', lazy: visorPage('public') },
          { path: 'config/profile', id: 'config-profile', lazy: async () => ({ Component: (await import('./features/profile/ProfilePage')).ProfilePage }) },
          {
            path: 'backend/pages/generic/search',
            id: 'search',
            lazy: async () => ({ Component: (await import('./features/search/SearchPage')).SearchPage }),
          },
          {
            id: 'admin-guard',
            loader: requireAdmin,
            shouldRevalidate: always,
            children: [
              {
                path: 'posiciones',
                id: 'posiciones',
                lazy: async () => ({ Component: (await import('./features/admin/PositionsAdminPage')).PositionsAdminPage }),
              },
              { path: 'users', id: 'users', lazy: async () => ({ Component: (await import('./features/admin/UsersPage')).UsersPage }) },
              { path: 'admin', id: 'home-admin', lazy: async () => ({ Component: (await import('./features/admin/AdminHomePage')).AdminHomePage }) },
              { path: 'admin/datacenter/tv', id: 'datacenter-tv', lazy: dataCenterPage('tv') },
              { path: 'admin/datacenter/rofex', id: 'datacenter-rofex', lazy: dataCenterPage('rofex') },
              {
                path: 'admin/datacenter/logs-operadores',
                id: 'logs-operadores',
                lazy: async () => ({ Component: (await import('./features/admin/OperatorLogsPage')).OperatorLogsPage }),
              },
            ],
          },
        ],
      },
      {
        element: <BareLayout />,
        children: [{ path: '*', id: 'not-found', element: <NotFoundPage /> }],
      },
    ],
  },
];

export function createRouter() {
  const signIn = signedOutStart(routes, window.location.href, getToken());
  if (signIn) window.history.replaceState(null, '', signIn);
  installIntentPrefetch(routes);
  return createBrowserRouter(routes);
}
