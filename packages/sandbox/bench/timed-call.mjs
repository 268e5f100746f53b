// What the sandbox benchmarks share: run a command to its end, time one wrapped `bash -c true`
// call (wrap, run, release), and the median of a list of rounds.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** Run `argv` in its own process group, output ignored; rejects unless it exits 0. */
export function run(argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${argv[0]} exited ${code}`))));
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Milliseconds of one sandboxed `bash -c true`: wrap, run, release. */
export async function timedCall(backend, policy, cwd) {
  const start = performance.now();
  const wrapped = backend.wrap({ argv: ['/bin/bash', '-c', 'true'], cwd }, policy);
  try {
    await run(wrapped.argv, cwd);
  } finally {
    await wrapped.release();
  }
  return performance.now() - start;
}
