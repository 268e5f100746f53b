// Benchmarks of @openwork/builtins, printed side by side in one run (architecture §5):
//   1. `read` (first page of a 256 MiB text file: the whole file is streamed, counted and hashed)
//      against `sha256sum` on the same file and against hashing alone (`sha256File`, the floor:
//      read cannot be faster than hashing every byte). Goal: read ≥ 70% of sha256File's speed.
//   2. `edit` + its file_change artifact on a 1 MiB file whose every line changes (the diff falls
//      back to prefix/suffix above the Myers trace limit, §8.4). Goal: well under a second.
// Paired rounds (the competitors run back to back in each round, order rotated), medians reported.
// Run with `pnpm --filter @openwork/builtins bench` (it builds first).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { UnavailableSandboxBackend } from '@openwork/sandbox';
import { ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from '../dist/index.js';

const run = promisify(execFile);
const MiB = 1024 * 1024;
const readBytes = 256 * MiB;
const rounds = 5;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = async (action) => {
  const started = performance.now();
  await action();
  return (performance.now() - started) / 1000;
};

function textBlock() {
  // ~4 MiB of source-like lines of varying length (20–140 bytes), fixed seed.
  const words = ['const', 'value', 'return', 'function', 'await', 'if', '(', ')', '{', '}', 'import', 'from', "'./x.js'", ';', '=>', 'read', 'éàü', '—'];
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  let text = '';
  while (text.length < 4 * MiB) {
    const length = 20 + Math.floor(random() * 120);
    let line = '  ';
    while (line.length < length) line += words[Math.floor(random() * words.length)] + ' ';
    text += line + '\n';
  }
  return Buffer.from(text);
}

const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-builtins-bench-')));
try {
  const workspace = join(root, 'workspace');
  await mkdir(workspace);
  const session = new ToolSessionContext({
    workingDirectory: workspace,
    homeDirectory: root,
    sandbox: new UnavailableSandboxBackend('benchmark'),
    environment: {},
    filesystem: new NodeFileSystem(),
    processBackend: new NodeProcessBackend(),
  });
  const toolset = await finalizeBuiltinToolset(session, { escalationAvailable: false });
  const sandboxPolicy = sessionSandboxPolicy(session, { tempRoots: [] });
  let callNumber = 0;
  const call = (tool, input) => toolset.call(tool, input, { callId: `bench-${++callNumber}`, signal: new AbortController().signal, sandboxPolicy });

  // 1. read vs sha256sum vs sha256File
  const big = join(workspace, 'big.txt');
  const block = textBlock();
  const handle = await open(big, 'w');
  for (let written = 0; written < readBytes; written += block.length) await handle.write(block, 0, Math.min(block.length, readBytes - written));
  await handle.close();
  await run('sh', ['-c', 'cat "$1" > /dev/null', 'sh', big]); // warm page cache for everybody
  const fileSystem = new NodeFileSystem();
  const competitors = {
    'read (first page)': async () => {
      const result = await call('read', { path: 'big.txt' });
      if (result.status !== 'succeeded') throw new Error(result.content[0].text);
    },
    sha256sum: () => run('sha256sum', [big]),
    'sha256File (hash only)': () => fileSystem.sha256File(big),
  };
  const names = Object.keys(competitors);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let index = 0; index < names.length; index += 1) {
      const name = names[(index + round) % names.length];
      times[name].push(await seconds(competitors[name]));
    }
  }
  const throughput = (name) => readBytes / median(times[name]) / 1e6;
  console.log(`read of a ${readBytes / MiB} MiB text file (median of ${rounds} paired rounds, warm cache)`);
  for (const name of names) {
    console.log(
      `  ${name.padEnd(24)} ${throughput(name).toFixed(0).padStart(6)} MB/s   ${((throughput(name) / throughput('sha256sum')) * 100).toFixed(0).padStart(4)}% of sha256sum   ${((throughput(name) / throughput('sha256File (hash only)')) * 100).toFixed(0).padStart(4)}% of sha256File`,
    );
  }
  const readRatio = throughput('read (first page)') / throughput('sha256File (hash only)');
  console.log(`  goal: read >= 70% of sha256File -> ${(readRatio * 100).toFixed(0)}% ${readRatio >= 0.7 ? 'MET' : 'NOT MET'}`);
  await rm(big);

  // 2. edit + artifact of a 1 MiB file where every line changes
  // Source-like lines up to 1 MiB; the replacement keeps the length, so the result is 1 MiB too.
  const lines = [];
  for (let size = 0, i = 0; ; i += 1) {
    const line = `const value${String(i).padStart(6, '0')} = compute(${i}); //\n`;
    if (size + line.length > MiB) break;
    lines.push(line);
    size += line.length;
  }
  const lineCount = lines.length;
  const original = lines.join('');
  const editTimes = [];
  const editCpu = [];
  let lastText = '';
  let artifactSummary = '';
  for (let round = 0; round < rounds; round += 1) {
    const name = `all-lines-${round}.ts`;
    await writeFile(join(workspace, name), original);
    await call('read', { path: name });
    // One edit that changes every line: replaceAll of the text every line has.
    const cpuBefore = process.cpuUsage();
    const elapsed = await seconds(async () => {
      const result = await call('edit', { filePath: name, oldString: '= compute(', newString: '= COMPUTE(', replaceAll: true });
      if (result.status !== 'succeeded') throw new Error(result.content[0].text);
      lastText = result.content[0].text;
      const change = result.artifacts[0].change;
      artifactSummary = `${change.hunks.length} hunk(s), +${change.additions} -${change.deletions}`;
    });
    const cpu = process.cpuUsage(cpuBefore);
    editCpu.push((cpu.user + cpu.system) / 1e6);
    editTimes.push(elapsed);
  }
  console.log(`\nedit + file_change artifact of a ${(Buffer.byteLength(original) / MiB).toFixed(2)} MiB file, every one of ${lineCount} lines changed (median of ${rounds})`);
  console.log(`  ${(median(editTimes) * 1000).toFixed(0)} ms (min ${(Math.min(...editTimes) * 1000).toFixed(0)} ms, max ${(Math.max(...editTimes) * 1000).toFixed(0)} ms), CPU ${(median(editCpu) * 1000).toFixed(0)} ms; ${artifactSummary}`);
  console.log(`  result text: ${lastText.slice(0, 80)}`);
  console.log(`  goal: well under a second -> ${median(editTimes) < 1 ? 'MET' : 'NOT MET'}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
