// The depth check that runs on a client's raw JSON before anything parses it.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonDepthScanner, jsonTooDeep } from './jsonDepth';

const lists = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('jsonTooDeep', () => {
  it('accepts flat values and JSON exactly at the limit, of lists, objects and both', () => {
    for (const text of ['1', '"texto"', 'null', '[]', '{}', '[1,2,3]', '{"a":1,"b":[2]}', '']) expect(jsonTooDeep(text), text).toBe(false);
    expect(jsonTooDeep(lists(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(objects(MAX_JSON_DEPTH))).toBe(false);
    const mixed = '{"a":['.repeat(MAX_JSON_DEPTH / 2) + '1' + ']}'.repeat(MAX_JSON_DEPTH / 2);
    expect(jsonTooDeep(mixed)).toBe(false);
    expect(JSON.parse(mixed)).toBeTruthy();
  });

  it('refuses one level over the limit, of lists, objects and both', () => {
    expect(jsonTooDeep(lists(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(objects(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep('[' + '{"a":['.repeat(MAX_JSON_DEPTH / 2) + ']}'.repeat(MAX_JSON_DEPTH / 2) + ']')).toBe(true);
  });

  it('counts the deepest point, not the last one: siblings do not add up, and the limit is a parameter', () => {
    const wide = '[' + Array.from({ length: 1000 }, () => lists(3)).join(',') + ']';
    expect(jsonTooDeep(wide, 4)).toBe(false);
    expect(jsonTooDeep(wide, 3)).toBe(true);
    expect(jsonTooDeep(`[${lists(2)},${lists(5)},${lists(1)}]`, 5)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes and backslashes included', () => {
    const inString = JSON.stringify({ a: '['.repeat(1000) + '{'.repeat(1000) });
    expect(jsonTooDeep(inString, 1)).toBe(false);
    // An escaped quote does not end the string: the brackets after it are still text.
    const escapedQuote = JSON.stringify(['say \\"' + '['.repeat(100) + '" and \\\\']);
    expect(jsonTooDeep(escapedQuote, 1)).toBe(false);
    expect(JSON.parse(escapedQuote)).toHaveLength(1);
    // A string ending in an escaped backslash ends there: the brackets after it count.
    expect(jsonTooDeep('["a\\\\",' + lists(3) + ']', 3)).toBe(true);
    expect(jsonTooDeep('["a\\\\",' + lists(2) + ']', 3)).toBe(false);
    // Keys are strings too.
    expect(jsonTooDeep('{"[[[[": {"{{{{": 1}}', 2)).toBe(false);
  });

  it('is not fooled by closing brackets before opening ones, or text that is not JSON', () => {
    expect(jsonTooDeep(']]]]]]' + lists(4), 3)).toBe(true);
    expect(jsonTooDeep('}}}' + lists(3), 3)).toBe(false);
    expect(jsonTooDeep('[[[[', 3)).toBe(true);
    expect(jsonTooDeep('"[[[[', 3)).toBe(false);
  });

  it('scans huge input in one pass without recursion: 10 MB flat, and a million levels', () => {
    const flat = '[' + Array.from({ length: 1_000_000 }, (_, i) => `"v${i}"`).join(',') + ']';
    expect(flat.length).toBeGreaterThan(9_000_000);
    expect(jsonTooDeep(flat)).toBe(false);
    // Deeper than any stack: found without walking it (JSON.stringify of the parse would overflow).
    expect(jsonTooDeep(lists(1_000_000))).toBe(true);
    expect(jsonTooDeep('{"a":'.repeat(1_000_000))).toBe(true);
  });
});

describe('jsonDepthScanner', () => {
  it('judges text in pieces, and UTF-8 bytes, as it judges the whole text, an escape split between pieces included', () => {
    const texts = [
      lists(MAX_JSON_DEPTH),
      lists(MAX_JSON_DEPTH + 1),
      JSON.stringify(['ñandú \\"' + '['.repeat(100) + '" y \\\\']),
      '["a\\\\",' + lists(MAX_JSON_DEPTH) + ']',
    ];
    const bytes = new TextEncoder();
    for (const text of texts) {
      const whole = jsonTooDeep(text);
      for (const size of [1, 2, 3, 7]) {
        const byText = jsonDepthScanner();
        const byBytes = jsonDepthScanner();
        let textDeep = false;
        let bytesDeep = false;
        const encoded = bytes.encode(text);
        for (let i = 0; i < text.length; i += size) textDeep = byText.scan(text.slice(i, i + size));
        for (let i = 0; i < encoded.length; i += size) bytesDeep = byBytes.scan(encoded.subarray(i, i + size));
        expect(textDeep, `${text.slice(0, 20)}… in pieces of ${size}`).toBe(whole);
        expect(bytesDeep, `${text.slice(0, 20)}… in bytes of ${size}`).toBe(whole);
      }
    }
  });

  it('stays refused once too deep, whatever comes after', () => {
    const scanner = jsonDepthScanner(2);
    expect(scanner.scan('[[[')).toBe(true);
    expect(scanner.scan(']]]')).toBe(true);
  });
});
