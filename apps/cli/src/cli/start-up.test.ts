import { access, chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';

// Start-up (docs/decisions/0061-cli-one-bundle.md): what each command loads (each heavy module on first use) and where Node's
// compile cache goes. The speed itself is the start-up benchmark's (bench/startup.mjs), never a
// timed test. A `--import` hook run by the built executable writes every loaded module's URL.

let sandbox: CliSandbox;
let loadsFile: string;
let hookUrl: string;
beforeEach(async () => {
  sandbox = await createCliSandbox();
  await writeFile(join(sandbox.workspace, 'notes.txt'), 'alpha\nbeta\n');
  loadsFile = join(sandbox.root, 'loads.txt');
  const hook = join(sandbox.root, 'record-loads.mjs');
  await writeFile(
    hook,
    [
      "import { appendFileSync } from 'node:fs';",
      "import { createRequire, registerHooks } from 'node:module';",
      `const file = ${JSON.stringify(loadsFile)};`,
      'registerHooks({ load(url, context, next) { appendFileSync(file, `${url}\\n`); return next(url, context); } });',
      // CommonJS (better-sqlite3, re2) loads through require, which the hook does not see.
      "const Module = createRequire(import.meta.url)('node:module');",
      'const load = Module._load;',
      'Module._load = function (request, parent, isMain) { appendFileSync(file, `require:${request}\\n`); return load.call(this, request, parent, isMain); };',
    ].join('\n'),
  );
  hookUrl = pathToFileURL(hook).href;
});
afterEach(async () => sandbox.remove());

/** Runs `openwork <argv>` with the hook; resolves to the run and the modules it loaded. */
async function runRecorded(argv: string[], stdin?: string) {
  await writeFile(loadsFile, '');
  const environment = { ...sandbox.environment, NODE_OPTIONS: `--import ${hookUrl}` };
  const result = await runOpenwork(argv, { environment, cwd: sandbox.workspace, ...(stdin === undefined ? {} : { stdin }) });
  const loads = (await readFile(loadsFile, 'utf8')).split('\n').filter((line) => line !== '');
  return { result, loads: [...loads, ...(await bundledModules(loads))] };
}

/**
 * The modules inside the loaded chunks of the bundle (`dist/bundle/*.js`), by the sources of their
 * maps (`../../node_modules/@openwork/core/src/…`, `../../node_modules/zod/…`): a chunk's name
 * does not say which packages it holds.
 */
async function bundledModules(loads: readonly string[]): Promise<string[]> {
  const chunks = [...new Set(loads.filter((url) => /\/dist\/bundle\/[^/]+\.js$/.test(url)))];
  // Chunks without a map hold no module of ours: re-exports only, or the bundler's runtime.
  const maps = await Promise.all(chunks.map((url) => readFile(new URL(`${url}.map`), 'utf8').catch(() => '{"sources":[]}')));
  const sources = maps.map((map) => (JSON.parse(map) as { sources: string[] }).sources);
  return sources.flat().map((source) => `bundled:${source}`);
}

const loaded = (loads: readonly string[], pattern: RegExp) => loads.filter((url) => pattern.test(url));

describe('start-up loads heavy modules on first use (issue 29)', () => {
  it('--version and --help load none of core, the tools, zod, a store driver or the MCP SDK', async () => {
    for (const argv of [['--version'], ['--help'], ['call', '--help']]) {
      const { result, loads } = await runRecorded(argv);
      expect(result.status, argv.join(' ')).toBe(0);
      expect(loaded(loads, /packages\/(core|builtins|sandbox|tools-contract)\/|@openwork\/|\/zod\/|better-sqlite3|@modelcontextprotocol|\/pg\//), argv.join(' ')).toEqual([]);
    }
  });

  it('call read loads no MCP SDK, no RE2, no picomatch, no bash runner and no whole diff package', async () => {
    const { result, loads } = await runRecorded(['call', 'read', '{"path":"notes.txt"}']);
    expect(result).toMatchObject({ status: 0, stdout: '1\talpha\n2\tbeta\n' });
    expect(loaded(loads, /better-sqlite3/).length).toBeGreaterThan(0);
    expect(loaded(loads, /^bundled:.*@openwork\/builtins\/src\/read\/read-tool\.ts$/).length).toBe(1);
    expect(loaded(loads, /@modelcontextprotocol|re2|picomatch|\/ignore\/|run-sandboxed-bash|run-grep-call|run-edit-call|read-image|read-notebook|diff\/libesm\/index\.js/)).toEqual([]);
  });

  it('the tools load their call code when called: grep then loads RE2, edit its engine', async () => {
    await runOpenwork(['call', 'read', '{"path":"notes.txt"}'], { environment: sandbox.environment, cwd: sandbox.workspace });
    const grep = await runRecorded(['call', 'grep', '{"pattern":"al+pha"}']);
    expect(grep.result).toMatchObject({ status: 0 });
    expect(grep.result.stdout).toContain('notes.txt');
    expect(loaded(grep.loads, /run-grep-call/).length).toBeGreaterThan(0);
    expect(loaded(grep.loads, /re2/).length).toBeGreaterThan(0);
    // The search ran in the worker threads, started from the bundle's own worker chunk.
    expect(loaded(grep.loads, /\/dist\/bundle\/search-worker\.js$/).length).toBeGreaterThan(0);
    const lines = [{ tool: 'read', input: { path: 'notes.txt' } }, { tool: 'edit', input: { filePath: 'notes.txt', oldString: 'beta', newString: 'gamma' } }];
    const edit = await runRecorded(['session'], lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    expect(edit.result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { status: string }).status)).toEqual(['succeeded', 'succeeded']);
    expect(loaded(edit.loads, /run-edit-call/).length).toBeGreaterThan(0);
    expect(await readFile(join(sandbox.workspace, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
  });
});

describe('the compile cache lives in the OpenWork home only (issue 29)', () => {
  it('is used once the home exists, inside it, and never in the workspace or the user home', async () => {
    const first = await runOpenwork(['call', 'read', '{"path":"notes.txt"}'], { environment: sandbox.environment, cwd: sandbox.workspace });
    expect(first.status).toBe(0);
    // The first call made the home; from the next one on the cache is written there.
    await expect(access(join(sandbox.openworkHome, 'compile-cache'))).rejects.toThrow();
    const second = await runOpenwork(['call', 'read', '{"path":"notes.txt"}'], { environment: sandbox.environment, cwd: sandbox.workspace });
    expect(second.status).toBe(0);
    expect((await readdir(join(sandbox.openworkHome, 'compile-cache'))).length).toBeGreaterThan(0);
    expect(await readdir(sandbox.workspace)).toEqual(['notes.txt']);
    expect(await readdir(sandbox.home)).toEqual(['.openwork']);
    const third = await runOpenwork(['call', 'read', '{"path":"notes.txt"}'], { environment: sandbox.environment, cwd: sandbox.workspace });
    expect(third).toMatchObject({ status: 0, stdout: '1\talpha\n2\tbeta\n' });
  });

  it('--version, --help and a refused call create no OpenWork home', async () => {
    for (const argv of [['--version'], ['--help'], ['call', 'read', '{"path":"etc/hostname"}', '--workspace', '/']]) {
      const result = await runOpenwork(argv, { environment: sandbox.environment, cwd: sandbox.workspace });
      expect(result.status, argv.join(' ')).toBe(argv[0] === 'call' ? 2 : 0);
      await expect(access(sandbox.openworkHome), argv.join(' ')).rejects.toThrow();
    }
  });

  it('no sandboxed command can write the cache: the OpenWork home is hard-protected', async () => {
    await mkdir(sandbox.openworkHome, { recursive: true });
    await runOpenwork(['call', 'read', '{"path":"notes.txt"}'], { environment: sandbox.environment, cwd: sandbox.workspace });
    const cache = join(sandbox.openworkHome, 'compile-cache');
    const planted = await runOpenwork(['call', 'bash', JSON.stringify({ command: `echo planted > ${cache}/planted` })], { environment: sandbox.environment, cwd: sandbox.workspace });
    expect(planted.stdout).not.toContain('[exit 0;');
    await expect(access(join(cache, 'planted'))).rejects.toThrow();
    const write = await runOpenwork(['call', 'write', JSON.stringify({ path: join(cache, 'planted'), content: 'x' })], { environment: sandbox.environment, cwd: sandbox.workspace });
    expect(write.status).toBe(1);
    await expect(access(join(cache, 'planted'))).rejects.toThrow();
  });
});

describe('the remembered sandbox self-check (issue 29)', () => {
  it('a call remembers a pass in the OpenWork home; another bwrap on PATH is checked again and refused', async () => {
    const first = await runOpenwork(['call', 'bash', '{"command":"echo inside"}'], { environment: sandbox.environment, cwd: sandbox.workspace });
    expect(first.stdout).toContain('inside');
    const remembered = JSON.parse(await readFile(join(sandbox.openworkHome, 'sandbox-check.json'), 'utf8')) as { key: string; passedAt: number };
    expect(typeof remembered.key).toBe('string');
    expect(remembered.passedAt).toBeLessThanOrEqual(Date.now());

    const fakeBin = join(sandbox.root, 'fake-bin');
    await mkdir(fakeBin);
    await writeFile(join(fakeBin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    await chmod(join(fakeBin, 'bwrap'), 0o755);
    const environment = { ...sandbox.environment, PATH: `${fakeBin}:${sandbox.environment['PATH'] ?? ''}` };
    const refused = await runOpenwork(['call', 'bash', '{"command":"echo inside"}', '--json'], { environment, cwd: sandbox.workspace });
    const result = JSON.parse(refused.stdout) as { status: string; error: { code: string; message: string } | null };
    expect(result.error?.code).toBe('sandbox_unavailable');
    expect(result.error?.message).toContain('No permissions to create new namespace');
    const doctor = await runOpenwork(['doctor'], { environment, cwd: sandbox.workspace });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain('No permissions to create new namespace');
  });
});
