// BENCH_PROFILE=1: where a tab's main thread spends its script time during a run. The V8
// sampling profiler over CDP, each sample named by the built client's source maps (dist/assets/*.map),
// self and total time of the top functions. For finding what to cut; the figures of the run
// are measured without it (the profiler costs time of its own).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { CDPSession } from '@playwright/test';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export async function startPageProfile(cdp: CDPSession, assetsDir: string): Promise<{ stop(): Promise<string> }> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const parent = new Map<number, number>();
      for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
      const maps = new Map<string, TraceMap | null>();
      const mapOf = (url: string) => {
        const file = url.split('/').pop()!;
        if (!maps.has(file)) {
          try {
            maps.set(file, new TraceMap(readFileSync(path.join(assetsDir, `${file}.map`), 'utf8')));
          } catch {
            maps.set(file, null);
          }
        }
        return maps.get(file) ?? null;
      };
      const names = new Map<number, string>();
      const nameOf = (id: number) => {
        let name = names.get(id);
        if (name) return name;
        const { callFrame } = byId.get(id)!;
        const map = callFrame.url ? mapOf(callFrame.url) : null;
        const original = map ? originalPositionFor(map, { line: callFrame.lineNumber + 1, column: callFrame.columnNumber }) : null;
        name = original?.source
          ? `${original.name ?? (callFrame.functionName || '(anonymous)')} ${original.source.split('node_modules/').pop()}:${original.line}:${original.column}`
          : `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').pop()}:${callFrame.lineNumber}`;
        names.set(id, name);
        return name;
      };
      const self = new Map<string, number>();
      const total = new Map<string, number>();
      // timeDeltas[i] is the time before sample i; sample i-1 ran during it.
      for (let i = 1; i < profile.samples.length; i++) {
        const ms = profile.timeDeltas[i]! / 1000;
        const leaf = profile.samples[i - 1]!;
        self.set(nameOf(leaf), (self.get(nameOf(leaf)) ?? 0) + ms);
        const seen = new Set<string>();
        for (let at: number | undefined = leaf; at != null; at = parent.get(at)) {
          const name = nameOf(at);
          if (seen.has(name)) continue;
          seen.add(name);
          total.set(name, (total.get(name) ?? 0) + ms);
        }
      }
      const top = (times: Map<string, number>) =>
        [...times]
          .filter(([name]) => !/^\((?:idle|root|program)\)/.test(name))
          .sort((a, b) => b[1] - a[1])
          .slice(0, 20)
          .map(([name, ms]) => `    ${ms.toFixed(0).padStart(5)} ms  ${name}`)
          .join('\n');
      return `  main thread profile of tab 1 (V8 sampling, 0.2 ms), self time:\n${top(self)}\n  total time (self and callees):\n${top(total)}`;
    },
  };
}
