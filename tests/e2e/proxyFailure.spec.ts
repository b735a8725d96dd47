// A reverse proxy failing requests in front of a healthy server (issue 21): its 502 for one kind
// of request is not the network gone. The banner never says "Sin conexión": the write waits in
// the outbox, the user is told once that the server fails (a toast, and the banner's
// "el servidor falla"), it is tried again, backing off, and lands when the proxy lets it through.
// The TCP proxy of netProxy.ts answers the 502 itself (badGateway), as nginx does; the server's
// health and everything else go through.
import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './helpers';
import type { OwnServer } from './ownServer';
import { serverRequest, startProxiedServer, type ProxiedServer } from './proxiedServer';

let network: ProxiedServer<OwnServer>;

test.beforeAll(async () => {
  network = await startProxiedServer();
});

test.afterAll(async () => {
  await network?.stop();
});

/** The server's API, directly (never through the proxy). */
const api = (method: string, path: string, body: unknown, token: string | null) => serverRequest(network.server.url, method, path, body, token);

test('a proxy’s 502 for the favourite’s write: never “Sin conexión”, told once that the server fails, and the write lands when the proxy lets it through', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { proxy } = network;
  const login = (await api('POST', '/api/login', DEMO, null)) as { token: string; user: { _id: string } };
  const created = (await api(
    'POST',
    `/api/visores/${login.user._id}/new`,
    { title: 'Detrás del proxy', emoji: '', color: '#22c55e', folder_id: null },
    login.token,
  )) as {
    data: { id_visor: string };
  };
  const visorId = created.data.id_visor;
  const favOnServer = async () => ((await api('GET', `/api/visores/${visorId}/get`, undefined, login.token)).data as { fav: boolean }).fav;

  const context = await browser.newContext({ baseURL: proxy.url });
  const page = await context.newPage();
  await signIn(page, DEMO);
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible();
  await page.goto(`/visor/${visorId}/edit`);
  await expect(page.getByRole('button', { name: 'Agregar a Favoritos' })).toBeVisible();
  // Every "Sin conexión" the page ever shows, however briefly, and every toast saying the server fails.
  await page.evaluate(() => {
    const seen = { offline: [] as string[], toasts: 0 };
    (window as unknown as { seen: typeof seen }).seen = seen;
    const counted = new WeakSet<Element>();
    const look = () => {
      for (const banner of document.querySelectorAll('.offline-banner'))
        if (banner.textContent?.startsWith('Sin conexión')) seen.offline.push(banner.textContent);
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        if (counted.has(toast) || !toast.textContent?.includes('Hay cambios sin enviar porque el servidor falla')) continue;
        counted.add(toast);
        seen.toasts += 1;
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const seen = () => page.evaluate(() => (window as unknown as { seen: { offline: string[]; toasts: number } }).seen);

  proxy.badGateway(/^PUT \/api\/visores\/[^ ]+\/fav /);
  await page.getByRole('button', { name: 'Agregar a Favoritos' }).click();
  // Shown at once, from the outbox.
  await expect(page.getByRole('button', { name: 'Remover Favorito' })).toHaveAttribute('aria-pressed', 'true');
  const failing = page.locator('.offline-banner--failing');
  await expect(failing).toHaveText('1 cambio espera: el servidor falla (Error 502 del servidor). Se reintenta solo; no se pierde ningún cambio.');
  // Sent at once, again at once, then 1 s and 2 s later: four tries, each answered 502 by the proxy.
  await expect.poll(() => proxy.badGatewayCount(), { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
  await expect(failing).toBeVisible();
  expect(await favOnServer()).toBe(false);

  proxy.badGateway(null);
  await expect.poll(favOnServer, { timeout: 30_000 }).toBe(true);
  await expect(failing).toBeHidden();
  expect(await seen()).toEqual({ offline: [], toasts: 1 });
  await context.close();
});
