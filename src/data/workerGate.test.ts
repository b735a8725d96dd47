import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { describe, expect, it, vi } from 'vitest';
import { DATA_WORKER_PROTOCOL } from '../shared/workerProtocol';
import { checkWorker } from './workerGate';

const tab = { protocol: DATA_WORKER_PROTOCOL, buildId: 'tab-build' };

/** A worker answering hello() with `protocol`, and a subscribe that records its calls. */
function fakeWorker(hello: () => Promise<unknown>) {
  const subscribe = vi.fn(async (tabId: string, symbols: string[]) => ({ unknown: symbols.filter(() => tabId === 'x') }));
  return { remote: { hello: hello as () => Promise<{ protocol: number; buildId: string }>, subscribe }, subscribe };
}

describe('checkWorker', () => {
  it('passes calls to a worker of the same protocol, after the check', async () => {
    const { remote, subscribe } = fakeWorker(async () => ({ protocol: DATA_WORKER_PROTOCOL, buildId: 'worker-build' }));
    const log = vi.fn();
    const { api, checked } = checkWorker(remote, tab, log);
    await expect(api.subscribe('t1', ['A'])).resolves.toEqual({ unknown: [] });
    await expect(checked).resolves.toBeUndefined();
    expect(subscribe).toHaveBeenCalledWith('t1', ['A']);
    expect(log).not.toHaveBeenCalled();
  });

  it('never calls a worker of another protocol: every call rejects with worker_version, logged once', async () => {
    const { remote, subscribe } = fakeWorker(async () => ({ protocol: DATA_WORKER_PROTOCOL + 1, buildId: 'old-build' }));
    const log = vi.fn();
    const { api, checked } = checkWorker(remote, tab, log);
    await expect(api.subscribe('t1', ['A'])).rejects.toMatchObject({ code: 'worker_version', message: expect.stringContaining('old-build') });
    await expect(api.subscribe('t1', ['B'])).rejects.toMatchObject({ code: 'worker_version' });
    await expect(checked).rejects.toMatchObject({ code: 'worker_version' });
    expect(subscribe).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.[0]).toContain('tab-build');
  });

  it('refuses a worker without hello (a build before the check)', async () => {
    const { remote, subscribe } = fakeWorker(() => Promise.reject(new TypeError('remote.hello is not a function')));
    const { api } = checkWorker(remote, tab, () => {});
    await expect(api.subscribe('t1', ['A'])).rejects.toMatchObject({ code: 'worker_version', message: expect.stringContaining('sin versión de protocolo') });
    expect(subscribe).not.toHaveBeenCalled();
  });

  it('works over a Comlink remote, as the tab uses it', async () => {
    const channel = new MessageChannel();
    const worker = { hello: async () => ({ protocol: DATA_WORKER_PROTOCOL, buildId: 'w' }), echo: async (value: string) => `eco ${value}` };
    Comlink.expose(worker, channel.port1 as unknown as Comlink.Endpoint);
    const remote = Comlink.wrap<typeof worker>(channel.port2 as unknown as Comlink.Endpoint);
    const { api } = checkWorker(remote, tab, () => {});
    await expect(api.echo('hola')).resolves.toBe('eco hola');
    channel.port1.close();
    channel.port2.close();
  });
});
