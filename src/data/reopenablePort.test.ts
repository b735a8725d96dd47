// The tab's one port to the data worker: opened once, and opened anew, the old one ended, when the
// tab's check got no answer on it. The ports are real MessageChannel ports (a SharedWorker's port
// is one); what opens them stands in for the browser's SharedWorker constructor.
import { once } from 'node:events';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { reopenablePort } from './reopenablePort';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) channel.port1.close();
});

/** Each connection the tab opens: the tab's end, and the worker's end (which hears of a close). */
function connections() {
  const made: { port: MessagePort; worker: MessagePort }[] = [];
  const port = reopenablePort(
    () => {
      const channel = new MessageChannel();
      channels.push(channel);
      made.push({ port: channel.port2, worker: channel.port1 });
      return channel.port2;
    },
    (open) => open.close(),
  );
  return { port, made };
}

describe('the port to the data worker', () => {
  it('is opened once, however often it is asked for', () => {
    const { port, made } = connections();
    const first = port.open();
    expect(port.open()).toBe(first);
    expect(made).toHaveLength(1);
  });

  it('is opened anew when asked to, the old one closed, and the new one kept', async () => {
    const { port, made } = connections();
    const first = port.open();
    const second = port.reopen();
    expect(second).not.toBe(first);
    expect(port.open()).toBe(second);
    // The worker's end of the first hears it closed; the second carries messages.
    await once(made[0]!.worker, 'close');
    const heard = once(second, 'message');
    made[1]!.worker.postMessage('hola');
    expect(await heard).toEqual(['hola']);
  });

  it('opens one when asked anew before any was open', () => {
    const { port, made } = connections();
    const only = port.reopen();
    expect(port.open()).toBe(only);
    expect(made).toHaveLength(1);
  });
});
