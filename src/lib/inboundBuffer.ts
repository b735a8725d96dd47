// The market socket's inbound buffer (spec sections 4 and 9): up to 100 messages wait and
// are processed in batches of 10, yielding to the event loop between batches. Nothing is
// ever dropped. When the buffer is full it is processed at once, before the next message
// is taken in (back-pressure, not loss). Updates of one symbol may wait as one entry (the
// newer folded into the older, latest state winning); a message that answers a request
// (it carries a requestId) or a control event is never folded into anything.
import { isRecord } from './isRecord';
import { foldPayloadsInto, type SymbolPayload } from './quote';

export type InboundMessage = Record<string, unknown>;

export type InboundEntry =
  /** A control message (`{event: …}`), kept as received. */
  | { kind: 'event'; message: InboundMessage }
  /** Symbol payloads; with a requestId it answers that request and takes no folds. */
  | { kind: 'data'; symbols: Map<string, SymbolPayload>; requestId?: string };

export const INBOUND_CAPACITY = 100;
export const INBOUND_BATCH_SIZE = 10;

export interface InboundBufferOptions {
  capacity?: number;
  batchSize?: number;
  /** Handles one batch, in arrival order. */
  process(batch: InboundEntry[]): void;
  /** Runs `task` after yielding to the event loop. */
  yieldThen(task: () => void): void;
}

export interface InboundBuffer {
  push(message: InboundMessage): void;
  /** Entries waiting (a folded update counts once). */
  readonly size: number;
  /** Processes everything waiting now, in batches, without yielding. */
  drain(): void;
  /** Forgets everything waiting (the socket that sent it is gone for good). */
  clear(): void;
}

export function createInboundBuffer(options: InboundBufferOptions): InboundBuffer {
  const capacity = options.capacity ?? INBOUND_CAPACITY;
  const batchSize = options.batchSize ?? INBOUND_BATCH_SIZE;
  const entries: InboundEntry[] = [];
  /** The newest waiting entry holding each symbol: where a newer update may fold. */
  const latest = new Map<string, Extract<InboundEntry, { kind: 'data' }>>();
  let scheduled = false;
  // A generation lets a yield scheduled before clear() find nothing to do.
  let generation = 0;

  const takeBatch = (): InboundEntry[] => {
    const batch = entries.splice(0, batchSize);
    for (const entry of batch) {
      if (entry.kind !== 'data') continue;
      for (const symbol of entry.symbols.keys()) if (latest.get(symbol) === entry) latest.delete(symbol);
    }
    return batch;
  };

  const schedule = () => {
    if (scheduled || entries.length === 0) return;
    scheduled = true;
    const scheduledIn = generation;
    options.yieldThen(() => {
      if (scheduledIn !== generation) return;
      scheduled = false;
      try {
        const batch = takeBatch();
        if (batch.length > 0) options.process(batch);
      } finally {
        schedule();
      }
    });
  };

  const drain = () => {
    while (entries.length > 0) options.process(takeBatch());
  };

  const append = (message: InboundMessage) => {
    if ('event' in message) {
      entries.push({ kind: 'event', message });
      return;
    }
    const requestId = typeof message.requestId === 'string' ? message.requestId : undefined;
    let fresh: Extract<InboundEntry, { kind: 'data' }> | null = null;
    for (const symbol in message) {
      const payload = message[symbol];
      if (symbol === 'requestId' || !isRecord(payload)) continue;
      const target = latest.get(symbol);
      if (requestId == null && target && target.requestId == null) {
        // The waiting payload came from JSON.parse and is the buffer's own: fold in place.
        foldPayloadsInto(target.symbols.get(symbol)!, payload);
        continue;
      }
      fresh ??= requestId == null ? { kind: 'data', symbols: new Map() } : { kind: 'data', symbols: new Map(), requestId };
      fresh.symbols.set(symbol, payload);
      latest.set(symbol, fresh);
    }
    // An answer is kept even when it holds no symbol: its request waits for it.
    if (!fresh && requestId != null) fresh = { kind: 'data', symbols: new Map(), requestId };
    if (fresh) entries.push(fresh);
  };

  return {
    push(message) {
      if (entries.length >= capacity) drain();
      append(message);
      schedule();
    },
    get size() {
      return entries.length;
    },
    drain,
    clear() {
      entries.length = 0;
      latest.clear();
      scheduled = false;
      generation += 1;
    },
  };
}
