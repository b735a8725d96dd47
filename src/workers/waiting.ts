// The spec's waiting helpers (sections 5, 8, 9): wait until symbols have data, wait for a
// contract's expiration, and read expiration date lists, with the spec's log texts.
import { parseIsoDate } from '../lib/calendar';

export const SYMBOL_WAIT_MS = 5000;
export const SYMBOL_POLL_MS = 100;
export const EXPIRATION_WAIT_MS = 15_000;

export const INVALID_DATE_FORMAT = 'Invalid date format in expirationDates';
export const symbolTimeoutMessage = (ms: number) => `Timeout: Symbols not ready within ${ms}ms`;

/** Thrown by waitForSymbols; crosses the worker boundary as {code, message}. */
export class WaitTimeoutError extends Error {
  readonly code = 'timeout';
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Polls `ready` until it holds or the time is up; resolves with whether it held. */
function poll(ready: () => boolean, timeoutMs: number, pollMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (ready()) return resolve(true);
    const started = Date.now();
    const timer = setInterval(() => {
      if (ready()) {
        clearInterval(timer);
        resolve(true);
      } else if (Date.now() - started >= timeoutMs) {
        clearInterval(timer);
        resolve(false);
      }
    }, pollMs);
  });
}

/** Resolves when every symbol has data; after `timeoutMs` logs the spec's text (section 8) and rejects with it. */
export async function waitForSymbols(
  hasData: (symbol: string) => boolean,
  symbols: readonly string[],
  timeoutMs = SYMBOL_WAIT_MS,
  pollMs = SYMBOL_POLL_MS,
  log: Pick<Console, 'warn'> = console,
): Promise<void> {
  if (await poll(() => symbols.every(hasData), timeoutMs, pollMs)) return;
  const message = symbolTimeoutMessage(timeoutMs);
  log.warn(message);
  throw new WaitTimeoutError(message);
}

/** The expiration once known; after `timeoutMs`, nothing and a warning. */
export async function waitForExpiration(
  expirationOf: (symbol: string) => Date | undefined,
  symbol: string,
  options: { timeoutMs?: number; pollMs?: number; log?: Pick<Console, 'warn'> } = {},
): Promise<Date | undefined> {
  const timeoutMs = options.timeoutMs ?? EXPIRATION_WAIT_MS;
  if (await poll(() => expirationOf(symbol) != null, timeoutMs, options.pollMs ?? SYMBOL_POLL_MS)) return expirationOf(symbol);
  (options.log ?? console).warn(`Timeout: Expiration of ${symbol} not ready within ${timeoutMs}ms`);
  return undefined;
}

/** YYYYMMDD or YYYY-MM-DD dates; any other text throws 'Invalid date format in expirationDates'. */
export function parseExpirationDates(dates: readonly string[]): Date[] {
  return dates.map((text) => {
    const date = parseIsoDate(text);
    if (!date) throw new Error(INVALID_DATE_FORMAT);
    return date;
  });
}

/**
 * Each contract's expiration, in order. A contract whose expiration cannot be had logs
 * 'Error retrieving expiration for symbol: …' and gets null; a list that fails as a whole
 * (an answer that is not a date) logs 'Failed to retrieve expiration dates: …' and is all null.
 */
export async function getExpirationDates(
  symbols: readonly string[],
  fetchExpiration: (symbol: string) => Promise<string>,
  log: Pick<Console, 'error'> = console,
): Promise<(Date | null)[]> {
  try {
    const answers = await Promise.all(
      symbols.map(async (symbol) => {
        try {
          return await fetchExpiration(symbol);
        } catch (error) {
          log.error(`Error retrieving expiration for symbol: ${symbol}, ${reasonOf(error)}`);
          return null;
        }
      }),
    );
    const found = answers.filter((answer): answer is string => answer != null);
    const dates = parseExpirationDates(found);
    let next = 0;
    return answers.map((answer) => (answer == null ? null : dates[next++]!));
  } catch (error) {
    log.error(`Failed to retrieve expiration dates: ${reasonOf(error)}`);
    return symbols.map(() => null);
  }
}
