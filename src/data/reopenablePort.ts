// One port per tab to the data worker, opened on first use and opened again (the old one ended)
// when the tab's protocol check got no answer on it (data/workerGate.ts). Kept apart from
// workerPort.ts, which holds the browser's constructors, so it is tested without a browser.

export interface ReopenablePort<P> {
  /** The port, opened on first use. */
  open(): P;
  /** Ends the port (if any) and opens a new one. */
  reopen(): P;
}

/** `make` opens a port; `end` lets one go (closes a SharedWorker's port, terminates a dedicated worker). */
export function reopenablePort<P>(make: () => P, end: (port: P) => void): ReopenablePort<P> {
  let port: P | null = null;
  const open = (): P => (port ??= make());
  return {
    open,
    reopen() {
      if (port != null) end(port);
      port = null;
      return open();
    },
  };
}
