#!/usr/bin/env node
// Memory of one warm `openwork mcp` over many calls (architecture §5: ≤ 150 MB and flat over
// 100,000 calls), through the surface users run: the built server spawned as a process and called
// by the official MCP SDK client over stdio. CALLS mixed calls (default 100,000; read, list, glob,
// grep, write, edit, bash in turn) on a small workspace (a copy of @openwork/tools-contract's src/),
// printing the server's resident memory (VmRSS, all its threads: the search workers too) every
// EVERY calls (default 10,000), its peak (VmHWM), the errors and the load average. Then, unless
// LARGE=0, the peak of one grep over a large tree: the search corpus (bench/build-search-corpus)
// linked TIMES times (default 10) into one folder, in a fresh server. Run after a build:
// `pnpm bench:memory` (CALLS=n EVERY=n LARGE=0|1 TIMES=n; KINDS=0,1,… keeps some of the mix,
// SERVER_FLAGS='--…' passes Node flags to the server, OPENWORK_MCP_DEFAULT_HEAP=1 runs it with V8's
// defaults, to see what each holder costs).
import { cpSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildSearchCorpus } from '../../../packages/builtins/bench/build-search-corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = join(here, '..', '..', '..');
const bin = join(here, '..', 'dist', 'bundle', 'openwork.js');
const calls = Number(process.env.CALLS ?? 100_000);
const every = Number(process.env.EVERY ?? 10_000);
const times = Number(process.env.TIMES ?? 10);
const MB = 1024 * 1024;

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');

/** VmRSS and VmHWM of a process, in MB (decimal megabytes of 2^20 bytes, as `ps` shows them). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

async function serve(workspace, home, scratch) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(process.env.SERVER_FLAGS ?? '').split(' ').filter(Boolean), bin, 'mcp', '--workspace', workspace],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      OPENWORK_HOME: join(home, '.openwork'),
      TMPDIR: scratch,
      ...(process.env.SERVER_MALLOC_ARENA_MAX === undefined ? {} : { MALLOC_ARENA_MAX: process.env.SERVER_MALLOC_ARENA_MAX }),
      // V8's defaults and glibc's arenas, for comparison (docs/decisions/0107-a-small-server.md).
      ...(process.env.OPENWORK_MCP_DEFAULT_HEAP === '1' ? { OPENWORK_MCP_DEFAULT_HEAP: '1' } : {}),
    },
    cwd: workspace,
    stderr: process.env.SERVER_STDERR === '1' ? 'inherit' : 'ignore',
  });
  const client = new Client({ name: 'openwork-memory-bench', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** The workspace and home lie outside every temp root, as a user's do (see search-mcp.mjs's bash rows). */
mkdirSync(join(repositoryRoot, 'node_modules', '.cache'), { recursive: true });
const outside = realpathSync(mkdtempSync(join(repositoryRoot, 'node_modules', '.cache', 'ow-memory-bench-')));
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'ow-memory-bench-')));
try {
  await mixedCalls();
  if (process.env.LARGE !== '0') await largeGrep();
} finally {
  // The servers may still be writing their stores for a moment after the client closed.
  rmSync(outside, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

async function mixedCalls() {
  const workspace = join(outside, 'ws');
  const home = join(outside, 'home');
  mkdirSync(join(workspace, '.git'), { recursive: true });
  mkdirSync(home);
  cpSync(join(repositoryRoot, 'packages', 'tools-contract', 'src'), join(workspace, 'src'), { recursive: true });
  const { client, pid } = await serve(workspace, home, scratch);
  let errors = 0;
  let firstError;
  /** One call of the mix; the n-th call picks its kind. */
  const mix = (process.env.KINDS === undefined ? (list) => list : (list) => list.filter((_, index) => process.env.KINDS.split(',').includes(String(index))))([
    () => ({ name: 'read', arguments: { path: 'src/index.ts' } }),
    () => ({ name: 'list', arguments: { path: 'src' } }),
    () => ({ name: 'glob', arguments: { pattern: '**/*.ts' } }),
    () => ({ name: 'grep', arguments: { pattern: 'export', path: 'src' } }),
    (n) => ({ name: 'write', arguments: { path: 'scratch.txt', content: `line one ${n}\nline two\n` } }),
    (n) => ({ name: 'edit', arguments: { filePath: 'scratch.txt', oldString: `line one ${n - 1}`, newString: `line one, edited ${n}` } }),
    () => ({ name: 'grep', arguments: { pattern: 'ToolResult', path: 'src', outputMode: 'count' } }),
    () => ({ name: 'read', arguments: { path: 'src/index.ts', offset: 2, limit: 20 } }),
    () => ({ name: 'bash', arguments: { command: 'echo hello' } }),
    () => ({ name: 'list', arguments: { path: '.' } }),
  ]);
  console.log(`openwork mcp memory: ${calls} mixed calls (${mix.length} kinds in turn) through one server; load ${load()}`);
  console.log('| calls | RSS MB | peak MB | errors | calls/s | load |');
  console.log('|---:|---:|---:|---:|---:|---|');
  const started = performance.now();
  let lastMark = started;
  const rows = [];
  for (let n = 1; n <= calls; n += 1) {
    const request = mix[(n - 1) % mix.length](n);
    const began = performance.now();
    let result;
    try {
      result = await client.callTool(request);
    } catch (error) {
      // A call that got no answer (the SDK's 60 s request timeout): counted and named, and the run goes on.
      errors += 1;
      const line = `call ${n} (${JSON.stringify(request)}) failed after ${((performance.now() - began) / 1000).toFixed(1)} s: ${error instanceof Error ? error.message : String(error)}`;
      console.log(line);
      firstError ??= line;
      continue;
    }
    if (result.isError) {
      errors += 1;
      firstError ??= `${request.name}: ${result.content.map((part) => part.text).join('\n').slice(0, 300)}`;
    }
    if (n % every === 0 || n === calls) {
      const now = performance.now();
      const { rss, peak } = memoryOf(pid);
      rows.push(rss);
      console.log(`| ${n} | ${rss.toFixed(0)} | ${peak.toFixed(0)} | ${errors} | ${((every * 1000) / (now - lastMark)).toFixed(0)} | ${load()} |`);
      lastMark = now;
    }
  }
  if (firstError !== undefined) console.log(`first error: ${firstError}`);
  const steady = rows.slice(1);
  if (steady.length > 1) {
    const spread = (Math.max(...steady) - Math.min(...steady)) / Math.min(...steady);
    console.log(`steady RSS (from the second mark on): ${Math.min(...steady).toFixed(0)}–${Math.max(...steady).toFixed(0)} MB, spread ${(spread * 100).toFixed(1)} % (goal ≤ 150 MB and within 10 %)`);
  }
  console.log(`${((performance.now() - started) / 1000).toFixed(0)} s in all`);
  await client.close();
}

/** One grep over the corpus linked `times` times (hard links: no extra disk), in a fresh server. */
async function largeGrep() {
  const corpus = join(scratch, 'corpus');
  buildSearchCorpus(repositoryRoot, corpus);
  const large = join(outside, 'large');
  mkdirSync(large);
  const linkTree = (from, to) => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (entry.isDirectory()) linkTree(join(from, entry.name), join(to, entry.name));
      else if (entry.isFile()) linkSync(join(from, entry.name), join(to, entry.name));
    }
  };
  for (let copy = 0; copy < times; copy += 1) linkTree(corpus, join(large, `copy-${copy}`));
  let files = 0;
  const count = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) count(join(folder, entry.name));
      else files += 1;
    }
  };
  count(large);
  mkdirSync(join(large, '.git'));
  const home = join(outside, 'home-large');
  mkdirSync(home);
  const { client, pid } = await serve(large, home, scratch);
  await client.callTool({ name: 'list', arguments: { path: '.' } });
  const before = memoryOf(pid);
  const began = performance.now();
  let peak = before.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 20);
  const results = [];
  for (const pattern of ['function', 'zqxjv_nomatch_7731']) {
    const result = await client.callTool({ name: 'grep', arguments: { pattern } });
    results.push(`${pattern}: ${result.isError ? 'ERROR' : /\[showing[^\]]*\]|No matches[^\n]*/.exec(result.content.map((part) => part.text).join('\n'))?.[0] ?? 'ok'}`);
  }
  clearInterval(sampler);
  const after = memoryOf(pid);
  console.log(`\ngrep over ${files} files (the search corpus linked ${times} times), a fresh server: RSS ${before.rss.toFixed(0)} MB before, sampled peak ${peak.toFixed(0)} MB, VmHWM ${after.peak.toFixed(0)} MB, ${after.rss.toFixed(0)} MB after (goal: peak ≤ 200 MB); ${((performance.now() - began) / 1000).toFixed(1)} s; load ${load()}`);
  for (const line of results) console.log(`  ${line}`);
  await client.close();
  void statSync;
}
