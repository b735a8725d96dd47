// How deep JSON from a client may nest, checked on the raw text before anything parses or walks
// it. JSON.parse, zod, structured logging and String() all recurse once per level: a 1 MB body
// of 500,000 nested brackets took the server 570 ms to parse (2 ms for a flat 1 MB) and a
// socket message of 32,000 overflowed the stack in String(). One linear pass over the text,
// counting brackets outside strings, refuses such input first, in time proportional to its size.

/**
 * The deepest nesting of arrays and objects any request body or socket message may have. The
 * deepest payload of the product is a folder tree of 16 levels (TREE_LIMITS.maxDepth): a list,
 * then a folder object and its `sub` list per level, 33 levels with the empty `sub` of the
 * deepest folder; a visor's sections reach 6 (`{secciones:[{config:{rows:[{…}]}}]}`) and socket
 * messages 2. Twice the tree's depth leaves room and stays far below anything slow.
 */
export const MAX_JSON_DEPTH = 64;

export const JSON_TOO_DEEP = `El JSON no puede anidar más de ${MAX_JSON_DEPTH} niveles de listas u objetos`;

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const OPEN_LIST = 0x5b; // [
const CLOSE_LIST = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }

/** Judges the depth of JSON text that arrives in pieces (a request body's chunks). */
export interface JsonDepthScanner {
  /** Reads the next piece (text, or UTF-8 bytes); true once the text so far nests deeper than the limit. */
  scan(piece: string | Uint8Array): boolean;
}

/**
 * One pass, no recursion and no allocation: brackets inside strings do not count (a backslash
 * escapes the character after it, so `"\""` stays one string, also across pieces). UTF-8 bytes
 * read as the text does: a multi-byte character holds no ASCII byte. Text that is not JSON is
 * left to the parser, which refuses it; only its depth is judged here, so unbalanced closing
 * brackets never make it look shallower than its deepest point.
 */
export function jsonDepthScanner(maxDepth: number = MAX_JSON_DEPTH): JsonDepthScanner {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let tooDeep = false;
  return {
    scan(piece) {
      if (tooDeep) return true;
      const text = typeof piece === 'string' ? piece : null;
      const length = piece.length;
      for (let i = 0; i < length; i++) {
        const code = text !== null ? text.charCodeAt(i) : (piece as Uint8Array)[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (code === BACKSLASH) escaped = true;
          else if (code === QUOTE) inString = false;
        } else if (code === QUOTE) {
          inString = true;
        } else if (code === OPEN_LIST || code === OPEN_OBJECT) {
          depth++;
          if (depth > maxDepth) return (tooDeep = true);
        } else if ((code === CLOSE_LIST || code === CLOSE_OBJECT) && depth > 0) {
          depth--;
        }
      }
      return false;
    },
  };
}

/** Whether JSON text nests arrays and objects deeper than `maxDepth` (jsonDepthScanner on the whole text). */
export function jsonTooDeep(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  return jsonDepthScanner(maxDepth).scan(text);
}
