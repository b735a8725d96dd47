// The worker API across a real MessageChannel with Comlink, as a tab sees it.
import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { DataWorkerApi, TabMessage, TabPort } from './api';
import { createDataWorkerApi } from './dataLayer';
import { createFakeServer, createTestLog } from './testing/fakeSocket';

describe('data worker API over Comlink', () => {
  const channels: MessageChannel[] = [];
  afterEach(() => {
    for (const channel of channels.splice(0)) {
      channel.port1.close();
      channel.port2.close();
    }
  });

  function connect() {
    const server = createFakeServer();
    const api = createDataWorkerApi({
      socketUrl: 'ws://test/ws/market',
      apiBase: '/api',
      openSocket: server.openSocket,
      fetch: async () => ({ ok: true, status: 200, json: async () => ({}) }),
      locks: null,
      quoteTable: null,
      log: createTestLog(),
    });
    const channel = new MessageChannel();
    channels.push(channel);
    Comlink.expose(api, channel.port1 as unknown as Comlink.Endpoint);
    const remote = Comlink.wrap<DataWorkerApi>(channel.port2 as unknown as Comlink.Endpoint);
    return { server, remote };
  }

  it('rejects with a plain {code, message}', async () => {
    const { remote } = connect();
    const failure = await remote.waitForSymbols(['A'], 150).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toEqual({ code: 'timeout', message: 'Timeout: Symbols not ready within 150ms' });
    expect(failure).not.toBeInstanceOf(Error);
    await expect(remote.subscribe('nobody', ['A'])).rejects.toEqual({ code: 'unknown_tab', message: 'Unknown tab nobody: register again' });
  });

  it('posts status and ticks on the port a tab transferred', async () => {
    const { server, remote } = connect();
    const tabChannel = new MessageChannel();
    channels.push(tabChannel);
    const received: TabMessage[] = [];
    const arrived = (predicate: (message: TabMessage) => boolean) =>
      new Promise<TabMessage>((resolve) => {
        const found = received.find(predicate);
        if (found) return resolve(found);
        const listener = (message: TabMessage) => {
          if (!predicate(message)) return;
          tabChannel.port1.off('message', listener);
          resolve(message);
        };
        tabChannel.port1.on('message', listener);
      });
    tabChannel.port1.on('message', (message: TabMessage) => received.push(message));
    const port = tabChannel.port2;
    // Node's MessagePort is transferable like the browser's; the casts only bridge the typings.
    await remote.registerTab(Comlink.transfer({ tabId: 't1', lockName: null, port: port as unknown as TabPort }, [port as never]));
    await remote.setSession({ token: 'tok' });
    server.current.accept();
    await arrived((message) => message.type === 'market-status' && message.status.state === 'open');
    const subscribed = remote.subscribe('t1', ['DLR/DIC26']);
    const request = await new Promise<Record<string, unknown>>((resolve) => {
      const check = setInterval(() => {
        const found = server.current.actions('subscribe')[0];
        if (found) resolve((clearInterval(check), found));
      }, 5);
    });
    server.current.push({ 'DLR/DIC26': { md: { OP: 1450 }, expiration: '20261231' }, requestId: request.requestId });
    await expect(subscribed).resolves.toEqual({ unknown: [] });
    const ticks = await arrived((message) => message.type === 'ticks');
    expect(ticks).toEqual({ type: 'ticks', quotes: { 'DLR/DIC26': { md: { OP: 1450 }, expiration: new Date(Date.UTC(2026, 11, 31)) } } });
    await remote.setSession(null);
  });
});
