import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router-dom';
import { SESSION_ROUTE_ID } from '../features/auth/sessionRoute';
import { signedOutStart } from './signInRedirect';

// The route table's shape (router.tsx): sign-in, the signed-in branch, and not-found.
const routes: RouteObject[] = [
  {
    children: [
      { children: [{ path: '/auth/signin', id: 'auth-signin' }] },
      {
        id: SESSION_ROUTE_ID,
        children: [
          { index: true, id: 'home' },
          { path: 'visor/:id/edit', id: 'visor-modo-edicion' },
          { id: 'admin-guard', children: [{ path: 'users', id: 'users' }] },
        ],
      },
      { children: [{ path: '*', id: 'not-found' }] },
    ],
  },
];
const at = (path: string) => `http://127.0.0.1:8080${path}`;

describe('signedOutStart', () => {
  it('sends a signed-out start of / straight to sign-in', () => {
    expect(signedOutStart(routes, at('/'), null)).toBe('/auth/signin');
  });

  it('keeps the way back to any other signed-in screen, with its query', () => {
    expect(signedOutStart(routes, at('/visor/v1/edit?x=1'), null)).toBe(`/auth/signin?${new URLSearchParams({ next: '/visor/v1/edit?x=1' })}`);
    expect(signedOutStart(routes, at('/users'), null)).toBe(`/auth/signin?${new URLSearchParams({ next: '/users' })}`);
  });

  it('leaves a start with a token to the guards, and sign-in and unknown paths where they are', () => {
    expect(signedOutStart(routes, at('/'), 'token')).toBeNull();
    expect(signedOutStart(routes, at('/visor/v1/edit'), 'token')).toBeNull();
    expect(signedOutStart(routes, at('/auth/signin?next=%2Fusers'), null)).toBeNull();
    expect(signedOutStart(routes, at('/no/such/page'), null)).toBeNull();
  });
});
