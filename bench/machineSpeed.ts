// The machine's speed at the time of a benchmark, as one number: this check machine's speed
// changes from day to day (the same build's figures have moved by 1.5–2.5× between days), so
// a figure is read with the speed it was measured at. The job is fixed and single-threaded
// (seeded random numbers sorted, formatted and parsed back, as the app's work is: V8 script
// on one core); the best of several tries is kept, since a try can only be slowed by others.
import { performance } from 'node:perf_hooks';

const TRIES = 7;
const SIZE = 200_000;

function job(): number {
  let seed = 20261126;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const numbers = Array.from({ length: SIZE }, () => random() * 1e6);
  numbers.sort((a, b) => a - b);
  const text = JSON.stringify(numbers.map((value) => value.toFixed(4)));
  return (JSON.parse(text) as string[]).reduce((sum, value) => sum + Number(value), 0);
}

/** ms of the reference job: the best of TRIES (lower is faster). */
export function referenceJobMs(): number {
  let best = Infinity;
  let check = 0;
  for (let i = 0; i < TRIES; i++) {
    const started = performance.now();
    check += job();
    best = Math.min(best, performance.now() - started);
  }
  if (!Number.isFinite(check)) throw new Error('the reference job went wrong');
  return best;
}

/** The line benchmarks print under their header. */
export function machineSpeedLine(): string {
  return `machine speed: reference job ${referenceJobMs().toFixed(0)} ms (best of ${TRIES}; a fixed single-threaded V8 job in this Node process; lower is faster)`;
}
