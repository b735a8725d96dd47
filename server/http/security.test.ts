import type { AddressInfo } from 'node:net';
import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { cachedConnectSources, CONNECT_SOURCES_TTL_MS } from './security.js';

type Interfaces = ReturnType<typeof os.networkInterfaces>;

function iface(address: string): os.NetworkInterfaceInfo {
  return { address, netmask: '255.255.255.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: false, cidr: `${address}/24` };
}

const listening = (port: number): AddressInfo => ({ address: '0.0.0.0', family: 'IPv4', port });

describe('cachedConnectSources', () => {
  it('reads the interfaces once per TTL and port, and picks up an interface that came up later', () => {
    const config = loadConfig({ HOST: '0.0.0.0' });
    let clock = 0;
    let reads = 0;
    let interfaces: Interfaces = { eth0: [iface('10.0.0.5')] };
    const connectSrc = cachedConnectSources(config, {
      now: () => clock,
      interfaces: () => {
        reads += 1;
        return interfaces;
      },
    });

    const first = connectSrc(listening(8080));
    expect(first).toContain('http://10.0.0.5:8080');
    expect(first).toContain('ws://10.0.0.5:8080');
    expect(reads).toBe(1);

    // A new interface within the TTL: the same answer, without reading the interfaces again.
    interfaces = { eth0: [iface('10.0.0.5')], wlan0: [iface('192.168.1.20')] };
    clock = CONNECT_SOURCES_TTL_MS - 1;
    expect(connectSrc(listening(8080))).toBe(first);
    expect(reads).toBe(1);

    // Past the TTL: read again, the new interface is in.
    clock = CONNECT_SOURCES_TTL_MS;
    expect(connectSrc(listening(8080))).toContain('http://192.168.1.20:8080');
    expect(reads).toBe(2);

    // Another port: computed for it at once.
    expect(connectSrc(listening(9090))).toContain('http://192.168.1.20:9090');
    expect(reads).toBe(3);
  });
});
