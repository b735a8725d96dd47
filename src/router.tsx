// The spec's route table (section 2). Part of the entry with main.tsx and App.tsx: it puts
// the shells (layout/), the guards and route screens (routes/) and the pages (features/)
// together, so it sits above every layer. Signed-in screens sit under one branch whose
// loader checks the token on every navigation; admin screens add the admin check.
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootShell } from './layout/RootShell';
import { BackendLayout } from './layout/BackendLayout';
import { BareLayout } from './layout/BareLayout';
import { RouteErrorPage } from './routes/RouteErrorPage';
import { requireAdmin, requireUser, redirectIfSignedIn } from './routes/guards';
import { signInAction } from './features/auth/signInAction';
import { SignInPage } from './features/auth/SignInPage';
import { HomePage } from './features/home/HomePage';
import { ProfilePage } from './features/profile/ProfilePage';
import { SearchPage } from './features/search/SearchPage';
import { NotFoundPage } from './routes/NotFoundPage';
import { AdminHomePage } from './features/admin/AdminHomePage';
import { DataCenterPage } from './features/admin/DataCenterPage';
import { OperatorLogsPage } from './features/admin/OperatorLogsPage';
import { StartingScreen } from './routes/StartingScreen';
import { QuoteBoardPage } from './features/quoteBoard/QuoteBoardPage';
import { VisorPage } from './features/visor/VisorPage';
import { SESSION_ROUTE_ID } from './features/auth/sessionRoute';
import { PositionsAdminPage } from './features/admin/PositionsAdminPage';
import { UsersPage } from './features/admin/UsersPage';

const always = () => true;

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
        element: <BackendLayout />,
        children: [
          { index: true, id: 'home', element: <HomePage /> },
          { path: 'test', id: 'test', element: <QuoteBoardPage /> },
          { path: 'visor/:id/edit', id: 'visor-modo-edicion', element: <VisorPage mode="edit" /> },
          { path: 'visor/:id', id: 'visor-modo-publico', element: <VisorPage mode="public" /> },
          { path: 'visor/:id/public', id: 'visor-modo-publico-public', element: <VisorPage mode="public" /> },
          { path: 'config/profile', id: 'config-profile', element: <ProfilePage /> },
          { path: 'backend/pages/generic/search', id: 'search', element: <SearchPage /> },
          {
            id: 'admin-guard',
            loader: requireAdmin,
            shouldRevalidate: always,
            children: [
              { path: 'posiciones', id: 'posiciones', element: <PositionsAdminPage /> },
              { path: 'users', id: 'users', element: <UsersPage /> },
              { path: 'admin', id: 'home-admin', element: <AdminHomePage /> },
              { path: 'admin/datacenter/tv', id: 'datacenter-tv', element: <DataCenterPage key="tv" name="tv" /> },
              { path: 'admin/datacenter/rofex', id: 'datacenter-rofex', element: <DataCenterPage key="rofex" name="rofex" /> },
              { path: 'admin/datacenter/logs-operadores', id: 'logs-operadores', element: <OperatorLogsPage /> },
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
  return createBrowserRouter(routes);
}
