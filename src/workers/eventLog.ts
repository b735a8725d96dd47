// The worker's event log (spec sections 4 and 8): what the positions socket and the sync
// report goes to the console and to a ring of the last 200 entries that any tab can read.

export const EVENT_LOG_CAPACITY = 200;

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogEntry {
  /** Epoch ms. */
  time: number;
  level: LogLevel;
  text: string;
}

/** What the worker's parts write to; `detail` (an error, a raw message) goes to the console only. */
export interface EventLogger {
  info(text: string, detail?: unknown): void;
  warn(text: string, detail?: unknown): void;
  error(text: string, detail?: unknown): void;
}

export interface EventLog extends EventLogger {
  /** Oldest first; a copy, so it can cross to a tab as is. */
  entries(): LogEntry[];
  /** Calls `listener` with each new entry; returns the unsubscribe. */
  onEntry(listener: (entry: LogEntry) => void): () => void;
}

export interface EventLogOptions {
  capacity?: number;
  now?: () => number;
  console?: Pick<Console, LogLevel>;
}

export function createEventLog(options: EventLogOptions = {}): EventLog {
  const capacity = options.capacity ?? EVENT_LOG_CAPACITY;
  const now = options.now ?? Date.now;
  const out = options.console ?? console;
  const ring: LogEntry[] = [];
  const listeners = new Set<(entry: LogEntry) => void>();

  const write = (level: LogLevel, text: string, detail: unknown) => {
    if (detail === undefined) out[level](text);
    else out[level](text, detail);
    const entry: LogEntry = { time: now(), level, text };
    ring.push(entry);
    // Never more than one over; shifting 200 items is too cheap to warrant ring indices.
    if (ring.length > capacity) ring.shift();
    for (const listener of listeners) listener(entry);
  };

  return {
    info: (text, detail) => write('info', text, detail),
    warn: (text, detail) => write('warn', text, detail),
    error: (text, detail) => write('error', text, detail),
    entries: () => ring.map((entry) => ({ ...entry })),
    onEntry(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
