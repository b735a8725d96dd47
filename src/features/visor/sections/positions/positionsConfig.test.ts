import { describe, expect, it } from 'vitest';
import { Section } from '../../../../protocol/workspace';
import { defaultPositionsConfig, positionsConfigOf, readPositionsConfig } from './positionsConfig';

const sectionWith = (config: unknown) => ({ id: 'p1', type: 'positions', title: 'Posiciones', layout: { x: 0, y: 0, w: 12, h: 8 }, config });

describe('positions config', () => {
  it('reads a config stored as {account} as that account on the paper broker, and the protocol still accepts it', () => {
    expect(readPositionsConfig({ account: '12345' })).toEqual({ account: '12345', brokerUrl: 'sim://', username: '' });
    expect(Section.parse(sectionWith({ account: '12345' })).config).toEqual({ account: '12345' });
  });

  it('reads a Primary broker with its username; never a password', () => {
    const config = { account: 'REM123', brokerUrl: 'https://api.remarkets.primary.com.ar', username: 'ana' };
    expect(readPositionsConfig(config)).toEqual(config);
    expect(Section.parse(sectionWith(config)).config).toEqual(config);
    expect(Section.safeParse(sectionWith({ ...config, password: 'x' })).success).toBe(false);
  });

  it('reads anything unreadable as no account on the paper broker', () => {
    expect(readPositionsConfig(null)).toEqual({ account: '', brokerUrl: 'sim://', username: '' });
    expect(readPositionsConfig({ account: 3, brokerUrl: '  ' })).toEqual({ account: '', brokerUrl: 'sim://', username: '' });
    expect(readPositionsConfig({ account: 'A', username: 'ana' })).toEqual({ account: 'A', brokerUrl: 'sim://', username: '' });
  });

  it('writes what it reads, and a new section is valid before an account is chosen', () => {
    for (const config of [
      { account: 'DEMO-ANA', brokerUrl: 'sim://' },
      { account: 'REM1', brokerUrl: 'https://api.remarkets.primary.com.ar', username: 'ana' },
    ]) {
      expect(positionsConfigOf(readPositionsConfig(config))).toEqual(config);
    }
    expect(positionsConfigOf({ account: ' A ', brokerUrl: 'sim://', username: 'ana' })).toEqual({ account: 'A', brokerUrl: 'sim://' });
    expect(Section.safeParse(sectionWith(defaultPositionsConfig())).success).toBe(true);
  });
});
