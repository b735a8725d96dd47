import { describe, expect, it } from 'vitest';
import { userMatches } from './userSearch';

const ana = { username: 'ana.perez', firstName: 'Ána', lastName: 'Pérez Núñez' };

describe('userMatches', () => {
  it('finds a user by username, either name or the full name, ignoring case and accents', () => {
    expect(userMatches(ana, 'ANA.P')).toBe(true);
    expect(userMatches(ana, 'nunez')).toBe(true);
    expect(userMatches(ana, 'ana perez')).toBe(true);
    expect(userMatches(ana, '  Pérez ')).toBe(true);
  });

  it('matches everyone on an empty text and no one on another text', () => {
    expect(userMatches(ana, '   ')).toBe(true);
    expect(userMatches(ana, 'gomez')).toBe(false);
    expect(userMatches(ana, 'perez ana')).toBe(false);
  });
});
