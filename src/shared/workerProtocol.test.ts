import { describe, expect, it } from 'vitest';
import { DATA_WORKER_PROTOCOL, workerMismatch } from './workerProtocol';

const tab = { protocol: DATA_WORKER_PROTOCOL, buildId: '0.1.0-new' };

describe('workerMismatch', () => {
  it('accepts a worker of the same protocol, whatever its build', () => {
    expect(workerMismatch(tab, { protocol: DATA_WORKER_PROTOCOL, buildId: '0.1.0-new' })).toBeNull();
    expect(workerMismatch(tab, { protocol: DATA_WORKER_PROTOCOL, buildId: '0.1.0-old' })).toBeNull();
  });

  it('refuses another protocol, naming both builds', () => {
    expect(workerMismatch(tab, { protocol: DATA_WORKER_PROTOCOL + 1, buildId: '0.2.0-x' })).toEqual({
      code: 'worker_version',
      message: `El worker de datos habla el protocolo ${DATA_WORKER_PROTOCOL + 1} (build 0.2.0-x) y esta pestaña el protocolo ${DATA_WORKER_PROTOCOL} (build 0.1.0-new): no se usa. Recargue la página.`,
      status: 0,
    });
  });

  it('refuses a worker that answers no version (a build before hello) or garbage', () => {
    for (const answer of [{ failed: 'hello is not a function' }, undefined, null, { protocol: '1', buildId: 'x' }]) {
      expect(workerMismatch(tab, answer), JSON.stringify(answer)).toMatchObject({
        code: 'worker_version',
        message: expect.stringContaining('sin versión de protocolo'),
      });
    }
  });
});
