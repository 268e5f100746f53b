// The §8.4 file-change bench: `edit` + its `file_change` artifact on a 1 MiB file where every
// line changes, through a finalized toolset's `call` (the model's path), next to the work any
// edit must do anyway (hashing and atomically writing 1 MiB) measured in the same run, and the
// diff alone on the inputs that push Myers to its trace limit or past it (the fallback).
// Paired medians of several rounds. Run after a build: `pnpm run build && node bench/file-change.mjs`.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { createSandboxPolicy, UnavailableSandboxBackend } from '@openwork/sandbox';
import { ToolResult } from '@openwork/tools-contract';
import { createFileChange, diffFileContents, finalizeBuiltinToolset, ToolSessionContext } from '../dist/index.js';

const rounds = 9;
const MiB = 1024 * 1024;

/** Distinct source-like lines until `bytes` would be exceeded. */
function sourceText(bytes, variant) {
  let text = '';
  for (let index = 0; ; index += 1) {
    const line = `  const ${variant}${index} = compute(${index}, '${variant}'); // line ${index} of the ${variant} version\n`;
    if (text.length + line.length > bytes) return text;
    text += line;
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function format(milliseconds) {
  return `${milliseconds.toFixed(1)} ms`;
}

/** Wall time, and the process's CPU time (for synchronous work the same, unless other processes crowd the cores). */
async function timed(action) {
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  const result = await action();
  const cpu = process.cpuUsage(cpuStarted);
  return { milliseconds: performance.now() - started, cpuMilliseconds: (cpu.user + cpu.system) / 1000, result };
}

export async function runFileChangeBench() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-file-change-bench-')));
  try {
    const workspace = join(root, 'workspace');
    const home = join(root, 'home');
    await mkdir(workspace);
    await mkdir(home);
    const filesystem = new NodeFileSystem();
    const session = new ToolSessionContext({
      workingDirectory: workspace,
      homeDirectory: home,
      sandbox: new UnavailableSandboxBackend('the bench runs the file tools only'),
      environment: { PATH: '/usr/bin:/bin', HOME: home },
      filesystem,
      processBackend: new NodeProcessBackend(),
    });
    const toolset = await finalizeBuiltinToolset(session, { agent: 'default', escalationAvailable: false });
    const policy = createSandboxPolicy({ workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] });
    let callNumber = 0;
    const call = (tool, input) => toolset.call(tool, input, { callId: `bench-${(callNumber += 1)}`, signal: new AbortController().signal, sandboxPolicy: policy });

    const before = sourceText(MiB, 'original');
    const after = sourceText(MiB, 'rewritten');
    const lineCount = before.split('\n').length - 1;
    const target = join(workspace, 'big.ts');
    const reference = join(workspace, 'reference.ts');

    const editTimes = [];
    const writeTimes = [];
    const artifactTimes = [];
    const artifactCpuTimes = [];
    let summary = '';
    let artifact;
    for (let round = 0; round < rounds; round += 1) {
      await writeFile(target, before);
      await writeFile(reference, before);
      const read = await call('read', { path: 'big.ts', limit: 1 });
      if (read.status !== 'succeeded') throw new Error(ToolResult.text(read));
      // The floor: hash what was there, write 1 MiB atomically with the compare-before-rename.
      const floor = await timed(async () => {
        const expectedHash = await filesystem.sha256File(reference);
        await filesystem.atomicWrite(reference, after, { expectedHash });
      });
      const edit = await timed(() => call('edit', { filePath: 'big.ts', oldString: before, newString: after }));
      if (edit.result.status !== 'succeeded') throw new Error(ToolResult.text(edit.result));
      summary = ToolResult.text(edit.result);
      artifact = edit.result.artifacts[0];
      const alone = await timed(() =>
        createFileChange({ changeId: 'x', path: 'big.ts', realPath: target, displayPath: 'big.ts', before: Buffer.from(before), after: Buffer.from(after) }),
      );
      editTimes.push(edit.milliseconds);
      writeTimes.push(floor.milliseconds);
      artifactTimes.push(alone.milliseconds);
      artifactCpuTimes.push(alone.cpuMilliseconds);
    }
    const ratios = editTimes.map((time, index) => time / writeTimes[index]);
    console.log(`file-change bench: ${rounds} rounds, medians (paired ratios are medians of per-round ratios)`);
    console.log(`  1 MiB file, ${lineCount} lines, every line changed (${(Buffer.byteLength(after) / MiB).toFixed(3)} MiB after)`);
    console.log(`    edit through call, with its file_change artifact: ${format(median(editTimes))}   → ${summary}`);
    console.log(`    createFileChange alone (diff, hashes, hunks):       ${format(median(artifactTimes))}   (CPU ${format(median(artifactCpuTimes))}; +${artifact.change.additions} -${artifact.change.deletions}, ${artifact.change.hunks.length} hunk)`);
    console.log(`    reference: sha256 + atomicWrite of the same 1 MiB:  ${format(median(writeTimes))}   edit / reference = ${median(ratios).toFixed(2)}×`);

    // The diff alone at and beyond the Myers trace limit (2,000 distinct lines, neighbours swapped).
    const lines = Array.from({ length: 2000 }, (_, index) => `line ${index} of a mid-sized file\n`);
    const swapped = (swaps) => {
      const changed = [...lines];
      for (let swap = 0; swap < swaps; swap += 1) {
        const at = Math.round((swap * (lines.length - 2)) / (swaps - 1));
        [changed[at], changed[at + 1]] = [changed[at + 1], changed[at]];
      }
      return changed.join('');
    };
    const shuffled = (() => {
      const all = before.split(/(?<=\n)/);
      return all.map((_, index) => all[(index * 7919) % all.length]).join('');
    })();
    const reversedLines = Array.from({ length: 700 }, (_, index) => `line ${index}\n`);
    const cases = [
      ['700 lines reversed (Myers, D = 1,398: its slowest case under the limit)', reversedLines.join(''), [...reversedLines].reverse().join('')],
      ['2,000 lines, 249 swaps (Myers, D = 498 at the limit)', lines.join(''), swapped(249)],
      ['2,000 lines, 250 swaps (D = 500: fallback)', lines.join(''), swapped(250)],
      [`1 MiB, every line moved (fallback)`, before, shuffled],
    ];
    for (const [label, oldText, newText] of cases) {
      const times = [];
      const cpuTimes = [];
      let diff;
      for (let round = 0; round < rounds; round += 1) {
        const result = await timed(() => diffFileContents(oldText, newText));
        times.push(result.milliseconds);
        cpuTimes.push(result.cpuMilliseconds);
        diff = result.result;
      }
      const hashTimes = [];
      for (let round = 0; round < rounds; round += 1) hashTimes.push((await timed(() => createHash('sha256').update(oldText).update(newText).digest('hex'))).milliseconds);
      console.log(`  diffFileContents, ${label}: ${format(median(times))}, CPU ${format(median(cpuTimes))} (${diff.algorithm}, +${diff.additions} -${diff.deletions}); sha256 of both texts: ${format(median(hashTimes))}`);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runFileChangeBench();
