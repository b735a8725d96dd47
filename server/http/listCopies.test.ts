import { describe, expect, it } from 'vitest';
import { listCopies } from './listCopies.js';

const body = (bytes: number) => Buffer.alloc(bytes, 'x');

describe('listCopies', () => {
  it('gives back a copy only at the count it was read at, and forgets it at any other', () => {
    const copies = listCopies(1000);
    copies.set('ana', 3, body(10));
    expect(copies.get('ana', 3)?.length).toBe(10);
    expect(copies.get('ana', 4)).toBeNull();
    // Forgotten, not kept for an older count.
    expect(copies.get('ana', 3)).toBeNull();
    expect(copies.bytes).toBe(0);
  });

  it('holds at most its bytes, dropping the least recently read first', () => {
    const copies = listCopies(100);
    copies.set('ana', 1, body(40));
    copies.set('bob', 1, body(40));
    expect(copies.get('ana', 1)).not.toBeNull(); // ana read last: bob is the oldest now
    copies.set('eva', 1, body(40));
    expect(copies.get('bob', 1)).toBeNull();
    expect(copies.get('ana', 1)).not.toBeNull();
    expect(copies.get('eva', 1)).not.toBeNull();
    expect(copies.bytes).toBe(80);
  });

  it('replaces a user’s copy, and keeps none larger than all it may hold', () => {
    const copies = listCopies(100);
    copies.set('ana', 1, body(40));
    copies.set('ana', 2, body(50));
    expect(copies.bytes).toBe(50);
    copies.set('bob', 1, body(101));
    expect(copies.get('bob', 1)).toBeNull();
    expect(copies.bytes).toBe(50);
  });
});
