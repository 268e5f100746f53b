// Capture throughput of NodeProcessBackend against a plain shell pipe, measured in the same run.
// Run after a build: `pnpm run bench` (or `node bench/capture-throughput.mjs [bytes]`).
// Targets (architecture.md §5): backend ≥ 50% of the plain pipe's MB/s, RSS growth ≤ 32 MiB.
// The backend streams the full output to a spill file, but the spill cap (§8.2) means only the
// first 64 MiB reach the disk; the rest is read, counted and kept only in the 14 KiB tail.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NodeProcessBackend } from '../dist/index.js';

const bytes = Number(process.argv[2] ?? 1024 * 1024 * 1024);
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const directory = await mkdtemp(join(tmpdir(), 'ow-process-backend-bench-'));

async function timeShell(script) {
  const started = performance.now();
  const child = spawn('/bin/bash', ['-c', script], { stdio: 'ignore', env });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return performance.now() - started;
}

// The ceiling of any Node consumer: the same command read through Node's child_process pipes, data dropped.
async function timeNodeRead() {
  const started = performance.now();
  const child = spawn('head', ['-c', String(bytes), '/dev/zero'], { stdio: ['ignore', 'pipe', 'pipe'], env });
  child.stdout.on('data', () => undefined);
  await Promise.all([once(child.stdout, 'end'), once(child, 'exit')]);
  return performance.now() - started;
}

function megabytesPerSecond(milliseconds) {
  return bytes / 1e6 / (milliseconds / 1000);
}

try {
  const backend = new NodeProcessBackend();
  // Warm up both paths (page cache, JIT) with a small run.
  await backend.spawn(['head', '-c', String(32 * 1024 * 1024), '/dev/zero'], { cwd: directory, env, spill: { path: join(directory, 'warm.txt') } });
  await timeShell(`head -c ${32 * 1024 * 1024} /dev/zero | cat > /dev/null`);

  const pipeMs = await timeShell(`head -c ${bytes} /dev/zero | cat > /dev/null`);
  const directMs = await timeShell(`head -c ${bytes} /dev/zero > /dev/null`);
  const nodeMs = await timeNodeRead();

  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const spillPath = join(directory, 'spill', 'call.txt');
  const started = performance.now();
  const outcome = await backend.spawn(['head', '-c', String(bytes), '/dev/zero'], { cwd: directory, env, spill: { path: spillPath } });
  const backendMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (outcome.status !== 'exited' || outcome.totalBytes !== bytes) throw new Error(`unexpected outcome: ${JSON.stringify({ ...outcome, output: undefined })}`);
  const spilled = (await stat(spillPath)).size;

  const backendRate = megabytesPerSecond(backendMs);
  const pipeRate = megabytesPerSecond(pipeMs);
  const ratio = backendRate / pipeRate;
  const growthMiB = (peak - baseline) / 1024 / 1024;
  console.log(`capture throughput, ${bytes} bytes of /dev/zero`);
  console.log(`  plain shell, head | cat > /dev/null : ${pipeRate.toFixed(0)} MB/s (${pipeMs.toFixed(0)} ms)  [reference]`);
  console.log(`  plain shell, head > /dev/null       : ${megabytesPerSecond(directMs).toFixed(0)} MB/s (${directMs.toFixed(0)} ms)  [no pipe, for context]`);
  console.log(`  Node child_process, data dropped    : ${megabytesPerSecond(nodeMs).toFixed(0)} MB/s (${nodeMs.toFixed(0)} ms)  [Node's own pipe-read ceiling]`);
  console.log(`  NodeProcessBackend with spill       : ${backendRate.toFixed(0)} MB/s (${backendMs.toFixed(0)} ms)`);
  console.log(`  ratio backend / pipe                : ${(ratio * 100).toFixed(0)}%  (target >= 50%) ${ratio >= 0.5 ? 'OK' : 'BELOW TARGET'}`);
  console.log(`  RSS growth during the capture       : ${growthMiB.toFixed(1)} MiB  (target <= 32 MiB) ${growthMiB <= 32 ? 'OK' : 'ABOVE TARGET'}`);
  console.log(`  spill file                          : ${spilled} bytes written (cap ${64 * 1024 * 1024}; truncated: ${outcome.spill?.truncated})`);
} finally {
  await rm(directory, { recursive: true, force: true });
}
