import { describe, expect, it } from 'vitest';
import { createInboundBuffer, type InboundEntry, type InboundMessage } from './inboundBuffer';
import { applyPayload, type Quote } from './quote';

/** A buffer whose yields wait until the test runs them, one at a time. */
function harness(capacity?: number) {
  const yields: (() => void)[] = [];
  const batches: InboundEntry[][] = [];
  const buffer = createInboundBuffer({
    ...(capacity == null ? {} : { capacity }),
    process: (batch) => batches.push(batch),
    yieldThen: (task) => yields.push(task),
  });
  const runYields = () => {
    while (yields.length > 0) yields.shift()!();
  };
  return { buffer, batches, yields, runYields };
}

/** Applies processed entries in order: the state each symbol ends in, and the answers seen. */
function replay(batches: InboundEntry[][]) {
  const state = new Map<string, Quote>();
  const answers: string[] = [];
  for (const entry of batches.flat()) {
    if (entry.kind !== 'data') continue;
    for (const [symbol, payload] of entry.symbols) state.set(symbol, applyPayload(state.get(symbol), payload));
    if (entry.requestId != null) answers.push(entry.requestId);
  }
  return { state, answers };
}

describe('inbound buffer', () => {
  it('processes in batches of 10 and yields between batches', () => {
    const { buffer, batches, yields, runYields } = harness();
    for (let i = 0; i < 25; i++) buffer.push({ [`S${i}`]: { md: { OP: i } } });
    expect(batches).toHaveLength(0);
    expect(yields).toHaveLength(1);
    yields.shift()!();
    expect(batches.map((batch) => batch.length)).toEqual([10]);
    expect(yields).toHaveLength(1);
    runYields();
    expect(batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
    expect(buffer.size).toBe(0);
  });

  it('when full, processes what waits before taking the next message in', () => {
    const { buffer, batches } = harness();
    for (let i = 0; i < 100; i++) buffer.push({ [`S${i}`]: { md: { OP: i } }, requestId: `r${i}` });
    expect(buffer.size).toBe(100);
    expect(batches).toHaveLength(0);
    buffer.push({ S0: { md: { OP: -1 } }, requestId: 'r100' });
    expect(batches.map((batch) => batch.length)).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 10, 10]);
    expect(buffer.size).toBe(1);
    expect(replay(batches).answers).toEqual(Array.from({ length: 100 }, (_, i) => `r${i}`));
  });

  it('folds updates of one symbol into one entry, latest state winning', () => {
    const { buffer, batches, runYields } = harness();
    for (let i = 1; i <= 50; i++) buffer.push({ DLR: { md: { LA: { price: i, size: 1, date: i }, HI: i === 50 ? '0' : i } } });
    expect(buffer.size).toBe(1);
    runYields();
    expect(replay(batches).state.get('DLR')!.md).toEqual({ LA: { price: 50, size: 1, date: 50 }, HI: 49 });
  });

  it('never folds into or out of an answer, so it arrives and keeps its place', () => {
    const { buffer, batches, runYields } = harness();
    buffer.push({ A: { md: { OP: 1 } } });
    buffer.push({ A: { md: { OP: 2 } }, requestId: 'req' });
    buffer.push({ A: { md: { OP: 3 } } });
    buffer.push({ A: { md: { OP: 4 } } });
    buffer.push({ requestId: 'empty' });
    expect(buffer.size).toBe(4);
    runYields();
    const seen = batches.flat().flatMap((entry) => (entry.kind === 'data' ? [[entry.requestId ?? null, entry.symbols.get('A')?.md]] : []));
    expect(seen).toEqual([
      [null, { OP: 1 }],
      ['req', { OP: 2 }],
      [null, { OP: 4 }],
      ['empty', undefined],
    ]);
  });

  it('keeps control events in order with the data around them', () => {
    const { buffer, batches, runYields } = harness();
    buffer.push({ event: 'error', message: 'Símbolos desconocidos: X', symbols: ['X'], requestId: 'r1' });
    buffer.push({ A: { md: {} }, requestId: 'r1' });
    runYields();
    expect(batches.flat().map((entry) => entry.kind)).toEqual(['event', 'data']);
  });

  it('loses nothing and keeps per-symbol order over a long mixed stream', () => {
    const { buffer, batches, yields } = harness();
    const symbols = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
    const expected = new Map<string, Quote>();
    const expectedAnswers: string[] = [];
    let peak = 0;
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) {
      const message: InboundMessage = {};
      for (const symbol of symbols) {
        if (random() < 0.4) message[symbol] = { md: { LA: { price: i, size: 1, date: i }, HI: random() < 0.3 ? '0' : i } };
      }
      if (random() < 0.25) {
        message.requestId = `r${i}`;
        expectedAnswers.push(`r${i}`);
      }
      for (const [symbol, payload] of Object.entries(message)) {
        if (symbol !== 'requestId') expected.set(symbol, applyPayload(expected.get(symbol), payload as Record<string, unknown>));
      }
      buffer.push(message);
      peak = Math.max(peak, buffer.size);
      // The event loop turns now and then, never often enough to keep the buffer empty.
      if (random() < 0.02 && yields.length > 0) yields.shift()!();
    }
    buffer.drain();
    // The stream filled the buffer, so back-pressure took part.
    expect(peak).toBe(100);
    const { state, answers } = replay(batches);
    expect(answers).toEqual(expectedAnswers);
    expect(state).toEqual(expected);
  });

  it('forgets what waits on clear, and a yield already scheduled does nothing', () => {
    const { buffer, batches, runYields } = harness();
    buffer.push({ A: { md: {} } });
    buffer.clear();
    runYields();
    expect(batches).toHaveLength(0);
    buffer.push({ B: { md: {} } });
    runYields();
    expect(batches.flat()).toHaveLength(1);
  });
});
