/** JSON text to a value, or null when there is none or it is not JSON (Redis keys and messages of other processes). */
export function parseJson<T>(text: string | null): T | null {
  if (text == null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
