import { describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router-dom';
import { prefetchRoute } from './prefetchRoute';

function table() {
  const layout = vi.fn(async () => ({}));
  const home = vi.fn(async () => ({}));
  const visor = vi.fn(async () => ({}));
  const users = vi.fn(async () => ({}));
  const routes: RouteObject[] = [
    {
      children: [
        { path: '/auth/signin' },
        {
          lazy: layout,
          children: [{ index: true, lazy: home }, { path: 'visor/:id/edit', lazy: visor }, { children: [{ path: 'users', lazy: users }] }],
        },
      ],
    },
  ];
  return { routes, layout, home, visor, users };
}

describe('prefetchRoute', () => {
  it("loads the chunks of every route the path matches, the layout's and the screen's", () => {
    const { routes, layout, home, visor, users } = table();
    prefetchRoute(routes, '/visor/v1/edit');
    expect(layout).toHaveBeenCalledTimes(1);
    expect(visor).toHaveBeenCalledTimes(1);
    expect(home).not.toHaveBeenCalled();
    expect(users).not.toHaveBeenCalled();
  });

  it('asks for each route once across links', () => {
    const { routes, layout, visor } = table();
    const started = new WeakSet<RouteObject>();
    prefetchRoute(routes, '/visor/v1/edit', started);
    prefetchRoute(routes, '/visor/v2/edit', started);
    expect(layout).toHaveBeenCalledTimes(1);
    expect(visor).toHaveBeenCalledTimes(1);
  });

  it('tries again after a chunk failed to load, and ignores paths of no route', async () => {
    const { routes, visor } = table();
    visor.mockRejectedValueOnce(new Error('offline'));
    const started = new WeakSet<RouteObject>();
    prefetchRoute(routes, '/visor/v1/edit', started);
    await vi.waitFor(() => expect(visor).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    prefetchRoute(routes, '/visor/v1/edit', started);
    expect(visor).toHaveBeenCalledTimes(2);
    expect(() => prefetchRoute(routes, '/nowhere', started)).not.toThrow();
  });

  it('leaves the sign-in page alone: it has no chunk', () => {
    const { routes, layout } = table();
    prefetchRoute(routes, '/auth/signin');
    expect(layout).not.toHaveBeenCalled();
  });
});
