// Read + hash throughput of a 1 GiB file: `readLines` (what the read tool does: deliver the first
// 2,000 lines, count every line, hash the whole file) and `sha256File`, against `sha256sum` on the
// same file in the same run. Run after a build: `pnpm run build && pnpm run bench`.
// Heavy (two 1 GiB files, one after the other, in a temp dir that is removed at the end).
import { execFile } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { NodeFileSystem } from '../dist/index.js';

const size = 1024 * 1024 * 1024;
const repeats = 2;
const run = promisify(execFile);

async function writeFile(path, block) {
  const handle = await open(path, 'w');
  for (let written = 0; written < size; written += block.length) await handle.write(block, 0, Math.min(block.length, size - written));
  await handle.close();
}

function textBlock() {
  // ~4 MiB of source-like lines of varying length (20–140 bytes).
  const words = ['const', 'value', 'return', 'function', 'await', 'if', '(', ')', '{', '}', 'import', 'from', "'./x.js'", ';', '=>', 'readLines', 'éàü', '—'];
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  let text = '';
  while (text.length < 4 * 1024 * 1024) {
    const length = 20 + Math.floor(random() * 120);
    let line = '  ';
    while (line.length < length) line += words[Math.floor(random() * words.length)] + ' ';
    text += line + '\n';
  }
  return Buffer.from(text);
}

async function best(label, action) {
  let bestSeconds = Infinity;
  let result;
  for (let index = 0; index < repeats; index += 1) {
    const started = performance.now();
    result = await action();
    bestSeconds = Math.min(bestSeconds, (performance.now() - started) / 1000);
  }
  return { label, seconds: bestSeconds, result };
}

async function measure(name, path) {
  const fileSystem = new NodeFileSystem();
  await run('sh', ['-c', 'cat "$1" > /dev/null', 'sh', path]); // same warm page cache for everybody
  const reference = await best('sha256sum', async () => (await run('sha256sum', [path])).stdout.split(' ')[0]);
  let peakArrayBuffers = 0;
  const baseline = process.memoryUsage().arrayBuffers;
  const sampler = setInterval(() => {
    peakArrayBuffers = Math.max(peakArrayBuffers, process.memoryUsage().arrayBuffers - baseline);
  }, 5);
  const lines = await best('readLines (read tool path)', () =>
    fileSystem.readLines(path, { onLine: (line) => line.number < 2000 }),
  );
  clearInterval(sampler);
  const hashOnly = await best('sha256File', () => fileSystem.sha256File(path));
  if (lines.result.sha256 !== reference.result || hashOnly.result !== reference.result) {
    throw new Error(`hash mismatch: sha256sum ${reference.result}, readLines ${lines.result.sha256}, sha256File ${hashOnly.result}`);
  }
  const megabytesPerSecond = (seconds) => size / seconds / 1e6;
  console.log(`\n${name}: ${size} bytes, ${lines.result.lineCount} lines, sha256 ${reference.result}`);
  for (const entry of [reference, lines, hashOnly]) {
    const ratio = reference.seconds / entry.seconds;
    console.log(
      `  ${entry.label.padEnd(28)} ${megabytesPerSecond(entry.seconds).toFixed(0).padStart(6)} MB/s  ${(ratio * 100).toFixed(0).padStart(4)}% of sha256sum`,
    );
  }
  console.log(`  readLines extra memory (ArrayBuffers, sampled): ${(peakArrayBuffers / 1024 / 1024).toFixed(1)} MiB`);
}

const directory = await mkdtemp(join(tmpdir(), 'ow-fs-bench-'));
try {
  const path = join(directory, 'big.txt');
  console.log(`best of ${repeats} runs each; target: readLines >= 70% of sha256sum`);
  await writeFile(path, textBlock());
  await measure('text file (lines of 20-140 bytes)', path);
  await writeFile(path, Buffer.alloc(4 * 1024 * 1024, 'x'));
  await measure('single-line file (no newline at all)', path);
} finally {
  await rm(directory, { recursive: true, force: true });
}
