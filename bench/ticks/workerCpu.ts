// The data worker's CPU during a run: the V8 sampling profiler on the SharedWorker's target,
// reached from the browser's CDP session (Target.attachToTarget without flatten: messages to
// the worker travel inside Target.sendMessageToTarget). Busy time is the sum of sample
// intervals not spent idle.
import type { Browser } from '@playwright/test';

export interface WorkerProfile {
  busyMs: number;
  wallMs: number;
  /** Functions with the most self time, ms. */
  top: [string, number][];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export async function profileSharedWorker(browser: Browser): Promise<{ stop(): Promise<WorkerProfile> } | null> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
  const target = targetInfos.find((info) => info.type === 'shared_worker');
  if (!target) {
    console.warn('bench: no shared_worker target found; worker CPU not measured');
    return null;
  }
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
  let nextId = 0;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
    const pending = message.id == null ? undefined : waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id!);
    if (message.error) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });

  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 1000 });
  await send('Profiler.start');
  return {
    async stop() {
      const { profile } = (await send('Profiler.stop')) as { profile: Profile };
      const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
      let busyUs = 0;
      // timeDeltas[i] is the time before sample i; sample i-1 ran during it.
      for (let i = 1; i < profile.samples.length; i++) if (!idle.has(profile.samples[i - 1]!)) busyUs += profile.timeDeltas[i]!;
      const names = new Map(
        profile.nodes.map((node) => [
          node.id,
          `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`,
        ]),
      );
      const self = new Map<string, number>();
      for (let i = 1; i < profile.samples.length; i++) {
        const name = names.get(profile.samples[i - 1]!)!;
        self.set(name, (self.get(name) ?? 0) + profile.timeDeltas[i]! / 1000);
      }
      const top = [...self]
        .filter(([name]) => !name.startsWith('(idle)'))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12);
      await cdp.detach().catch(() => {});
      return { busyMs: busyUs / 1000, wallMs: (profile.endTime - profile.startTime) / 1000, top };
    },
  };
}
