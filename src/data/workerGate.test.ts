import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATA_WORKER_PROTOCOL } from '../shared/workerProtocol';
import { checkWorker, HELLO_ATTEMPTS, HELLO_TIMEOUT_MS, helloWait } from './workerGate';

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

describe('checkWorker with a worker that never answers its check', () => {
  const worker = { hello: async () => ({ protocol: DATA_WORKER_PROTOCOL, buildId: 'w' }), echo: async (value: string) => `eco ${value}` };
  type Remote = Comlink.Remote<typeof worker>;
  const channels: MessageChannel[] = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const channel of channels.splice(0)) {
      channel.port1.close();
      channel.port2.close();
    }
  });
  // Only the timers: the ports' messages go through Node's own event loop.
  const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

  /**
   * The tab's ports to the worker, as openWorkerPort and reopenWorkerPort give them: each a real
   * MessageChannel wrapped by Comlink; the worker answers on the ports `answering` says, and on
   * the others nobody ever reads (a start lost under load). Opening one closes the one before.
   */
  function ports(answering: (index: number) => boolean) {
    const opened: MessageChannel[] = [];
    const open = (): Remote => {
      opened.at(-1)?.port2.close();
      const channel = new MessageChannel();
      channels.push(channel);
      if (answering(opened.length)) Comlink.expose(worker, channel.port1 as unknown as Comlink.Endpoint);
      opened.push(channel);
      return Comlink.wrap<typeof worker>(channel.port2 as unknown as Comlink.Endpoint);
    };
    const first = open();
    const reopen = vi.fn(open);
    return { first, reopen, opened };
  }

  /** The state of a promise now, without waiting for it. */
  function track(promise: Promise<unknown>) {
    const state: { settled: 'no' | 'resolved' | 'rejected'; value?: unknown } = { settled: 'no' };
    promise.then(
      (value) => Object.assign(state, { settled: 'resolved', value }),
      (value: unknown) => Object.assign(state, { settled: 'rejected', value }),
    );
    return state;
  }

  it('opens the port again when the check gets no answer in time, and the calls made meanwhile go to the worker that answers', async () => {
    fakeTimers();
    const { first, reopen } = ports((index) => index === 1);
    const log = vi.fn();
    const warn = vi.fn();
    const { api, checked } = checkWorker(first, tab, log, { reopen, warn });
    const call = track(api.echo('hola'));

    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS - 1);
    expect(reopen).not.toHaveBeenCalled();
    expect(call.settled).toBe('no');
    await vi.advanceTimersByTimeAsync(1);
    expect(reopen).toHaveBeenCalledTimes(1);

    await expect(checked).resolves.toBeUndefined();
    await expect(api.echo('otra vez')).resolves.toBe('eco otra vez');
    expect(call).toEqual({ settled: 'resolved', value: 'eco hola' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(log).not.toHaveBeenCalled();
    // Nothing left waiting: no more checks, no more ports.
    await vi.advanceTimersByTimeAsync(helloWait(HELLO_ATTEMPTS + 1));
    expect(reopen).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it(`gives up after ${HELLO_ATTEMPTS} checks unanswered: every call rejects with the worker refusal, logged once, and nothing is tried again`, async () => {
    fakeTimers();
    const { first, reopen } = ports(() => false);
    const log = vi.fn();
    const { api, checked } = checkWorker(first, tab, log, { reopen, warn: () => {} });
    const call = track(api.echo('hola'));
    const check = track(checked);

    // Each check waits twice as long as the one before (a dedicated worker opened again loads anew).
    for (let attempt = 1; attempt < HELLO_ATTEMPTS; attempt++) {
      await vi.advanceTimersByTimeAsync(helloWait(attempt) - 1);
      expect(reopen).toHaveBeenCalledTimes(attempt - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(reopen).toHaveBeenCalledTimes(attempt);
      expect(check.settled).toBe('no');
    }
    await vi.advanceTimersByTimeAsync(helloWait(HELLO_ATTEMPTS) - 1);
    expect(check.settled).toBe('no');
    await vi.advanceTimersByTimeAsync(1);
    expect(reopen).toHaveBeenCalledTimes(HELLO_ATTEMPTS - 1);
    expect(check).toMatchObject({ settled: 'rejected', value: { code: 'worker_version', message: expect.stringContaining('no respondió') } });
    expect((check.value as { message: string }).message).toContain(
      `en ${(helloWait(HELLO_ATTEMPTS + 1) - HELLO_TIMEOUT_MS) / 1000} s y ${HELLO_ATTEMPTS} intentos`,
    );
    expect(call).toMatchObject({ settled: 'rejected', value: { code: 'worker_version' } });
    await expect(api.echo('después')).rejects.toMatchObject({ code: 'worker_version' });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.[0]).toContain('tab-build');
    await vi.advanceTimersByTimeAsync(helloWait(HELLO_ATTEMPTS + 1));
    expect(reopen).toHaveBeenCalledTimes(HELLO_ATTEMPTS - 1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps the port of a worker that answers within the time, however late', async () => {
    fakeTimers();
    let answer: (hello: unknown) => void = () => {};
    const remote = { hello: () => new Promise<unknown>((resolve) => (answer = resolve)), echo: async (value: string) => `eco ${value}` };
    const reopen = vi.fn(() => remote);
    const { api, checked } = checkWorker(remote, tab, () => {}, { reopen });
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS - 1);
    answer({ protocol: DATA_WORKER_PROTOCOL, buildId: 'w' });
    await expect(checked).resolves.toBeUndefined();
    await expect(api.echo('hola')).resolves.toBe('eco hola');
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS);
    expect(reopen).not.toHaveBeenCalled();
  });
});
