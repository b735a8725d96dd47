// The serialised list of a user's visores, kept per user with the workspace's change count it
// was read at (workspace/service.ts workspaceChanges). Reading a list again costs that count's
// one-row read instead of reading, shaping and serialising every visor: a client (or many tabs,
// or a script) reading its list in a row no longer takes the server's time from everyone else.
// Each process keeps its own copies; the count lives in the database, so a change made through
// another process is seen as well.

export interface ListCopies {
  /** The copy read at `changes`, or null. */
  get(userId: string, changes: number): Buffer | null;
  set(userId: string, changes: number, body: Buffer): void;
  /** Bytes held (tests). */
  readonly bytes: number;
}

/** Copies up to `maxBytes` in all; past that, the least recently read go first. */
export function listCopies(maxBytes: number): ListCopies {
  // A Map iterates in insertion order: a copy read is moved to the end, so the first is the oldest.
  const copies = new Map<string, { changes: number; body: Buffer }>();
  let bytes = 0;
  const drop = (userId: string) => {
    const copy = copies.get(userId);
    if (!copy) return;
    copies.delete(userId);
    bytes -= copy.body.length;
  };
  return {
    get(userId, changes) {
      const copy = copies.get(userId);
      if (!copy) return null;
      if (copy.changes !== changes) {
        drop(userId);
        return null;
      }
      copies.delete(userId);
      copies.set(userId, copy);
      return copy.body;
    },
    set(userId, changes, body) {
      drop(userId);
      if (body.length > maxBytes) return;
      copies.set(userId, { changes, body });
      bytes += body.length;
      for (const [oldest] of copies) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    get bytes() {
      return bytes;
    },
  };
}
