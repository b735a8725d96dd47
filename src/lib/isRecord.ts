/** A plain object (not null, not an array): what a parsed JSON message must be before its keys are read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value != null && !Array.isArray(value);
}
