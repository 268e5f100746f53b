import { execFile } from 'node:child_process';
import { mkdtemp, open, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSourcesForChild } from '../test-support/compile-sources-for-child.js';

const run = promisify(execFile);
const MiB = 1024 * 1024;

/**
 * The child: one session, one finalized toolset, one `read` of the first page of `path`; it samples
 * its own memory every millisecond during the call and prints the peaks above the baseline taken
 * right before the call.
 */
const childScript = `
import { UnavailableSandboxBackend } from '@openwork/sandbox';
import { NodeFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend } from '@openwork/process-backend';
import { ToolSessionContext, finalizeBuiltinToolset, sessionSandboxPolicy } from './index.js';

const [workspace, home, file] = process.argv.slice(2);
const session = new ToolSessionContext({
  workingDirectory: workspace, homeDirectory: home, sandbox: new UnavailableSandboxBackend('test'),
  environment: {}, filesystem: new NodeFileSystem(), processBackend: new NodeProcessBackend(),
});
const toolset = await finalizeBuiltinToolset(session, { escalationAvailable: false });
const sandboxPolicy = sessionSandboxPolicy(session, { tempRoots: [] });
globalThis.gc();
const base = process.memoryUsage();
const peak = { rss: base.rss, heapUsed: base.heapUsed, arrayBuffers: base.arrayBuffers, external: base.external };
const sample = () => {
  const now = process.memoryUsage();
  for (const key of Object.keys(peak)) peak[key] = Math.max(peak[key], now[key]);
};
const timer = setInterval(sample, 1);
const result = await toolset.call('read', { path: file }, { callId: 'c', signal: new AbortController().signal, sandboxPolicy });
clearInterval(timer);
sample();
const text = result.content.map((part) => part.text).join('\\n');
const growth = Object.fromEntries(Object.keys(peak).map((key) => [key, peak[key] - base[key]]));
console.log(JSON.stringify({ status: result.status, head: text.slice(0, 40), tail: text.slice(-120), length: text.length, growth }));
`;

interface ChildReport {
  readonly status: string;
  readonly head: string;
  readonly tail: string;
  readonly length: number;
  readonly growth: { rss: number; heapUsed: number; arrayBuffers: number; external: number };
}

let build: string;
let root: string;
beforeAll(async () => {
  build = await compileSourcesForChild();
  await writeFile(join(build, 'read-child.js'), childScript);
  root = await realpath(await mkdtemp(join(tmpdir(), 'ow-read-memory-')));
});
afterAll(async () => {
  await rm(build, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

async function readInChild(file: string): Promise<ChildReport> {
  const { stdout } = await run(process.execPath, ['--expose-gc', join(build, 'read-child.js'), root, root, file], { maxBuffer: 1024 * 1024 });
  if (process.env["OPENWORK_PRINT_MEMORY"]) console.log(stdout);
  return JSON.parse(stdout) as ChildReport;
}

async function writeBlocks(path: string, blocks: number, block: Buffer): Promise<void> {
  const handle = await open(path, 'w');
  try {
    for (let i = 0; i < blocks; i += 1) await handle.write(block);
  } finally {
    await handle.close();
  }
}

describe('read keeps memory bounded on huge files (measured in a child process)', () => {
  it('the first page of a 1 GiB one-line file', async () => {
    const file = join(root, 'one-line.txt');
    await writeBlocks(file, 1024, Buffer.alloc(MiB, 'a'));
    const report = await readInChild(file);
    await rm(file);
    expect(report.status).toBe('succeeded');
    expect(report.head).toBe(`1\t${'a'.repeat(38)}`);
    // read looks at the first 64 MiB only (docs/decisions/0096): the line is shown cut, and the footer says so.
    const footer = '\n\n[showing lines 1-1 of at least 1 (one-line.txt is 1 GiB; read looked at its first 64 MiB and counted lines only there). Continue with offset=2]';
    expect(`${'a'.repeat(200)}... (line truncated to 2000 chars)${footer}`.endsWith(report.tail)).toBe(true);
    expect(report.length).toBe(2 + 2000 + '... (line truncated to 2000 chars)'.length + footer.length);
    // Holding the line would take 1 GiB; the reader keeps two 1 MiB buffers and 8,000 bytes.
    expect(report.growth.rss).toBeLessThan(24 * MiB);
    expect(report.growth.arrayBuffers).toBeLessThan(12 * MiB);
    expect(report.growth.heapUsed).toBeLessThan(12 * MiB);
  });

  it('the first page of a 5,000,000-line file', async () => {
    const file = join(root, 'many-lines.txt');
    // 5,000,000 lines of 11 bytes ("line 0000\n" style): 100,000 lines per block.
    const block = Buffer.from(Array.from({ length: 100_000 }, (_, i) => `row ${String(i).padStart(5, '0')}\n`).join(''));
    await writeBlocks(file, 50, block);
    const report = await readInChild(file);
    await rm(file);
    expect(report.status).toBe('succeeded');
    expect(report.head).toBe('1\trow 00000\n2\trow 00001\n3\trow 00002\n4\tro');
    expect(report.tail.endsWith('2000\trow 01999\n\n[showing lines 1-2000 of 5000000. Continue with offset=2001]')).toBe(true);
    // Counting 5,000,000 lines (55 MB) allocates nothing per line that is not shown.
    expect(report.growth.rss).toBeLessThan(24 * MiB);
    expect(report.growth.heapUsed).toBeLessThan(12 * MiB);
  });
});
