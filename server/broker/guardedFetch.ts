// A fetch for the broker connections users name (brokerUrl.ts): undici's fetch through an
// Agent of its own whose every connection resolves its host with the guarded lookup (public
// addresses only, the address checked is the address used), redirects not followed (a 3xx is
// an answer like any other, so credentials never travel to a host the allow-list did not
// name), and an answer's body capped. Node's global fetch is undici too, but takes no
// dispatcher of ours, hence the package.
import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';

/** A broker's answers are small JSON (accounts, positions); anything larger is refused. */
export const MAX_BROKER_BODY_BYTES = 8 * 1024 * 1024;

export interface GuardedFetch {
  fetch: typeof fetch;
  /** Closes the connections kept for reuse. */
  close(): void;
}

export function createGuardedFetch(lookup: LookupFunction, maxBodyBytes = MAX_BROKER_BODY_BYTES): GuardedFetch {
  const agent = new Agent({ connect: { lookup }, maxResponseSize: maxBodyBytes });

  const guardedFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (typeof input !== 'string' && !(input instanceof URL)) return Promise.reject(new TypeError('guardedFetch takes a URL, not a Request'));
    const { body, headers, method, signal } = init;
    if (body != null && typeof body !== 'string') return Promise.reject(new TypeError('guardedFetch sends string bodies only'));
    // undici's Response is the class the global fetch answers with (Node bundles undici);
    // the package's own typings name it separately, hence the cast.
    return undiciFetch(input, {
      method: method ?? 'GET',
      headers: headers as Record<string, string> | undefined,
      body: body ?? null,
      signal: signal ?? null,
      redirect: 'manual',
      dispatcher: agent,
    }) as unknown as Promise<Response>;
  };

  return {
    fetch: guardedFetch as typeof fetch,
    close() {
      void agent.close();
    },
  };
}
