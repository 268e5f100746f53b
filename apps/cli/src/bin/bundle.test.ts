import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, OPENWORK_BIN, type CliSandbox } from '../test-support/cli-sandbox.js';
import { eventually, processesWith, startSession } from '../test-support/session-process.js';

// Start-up (docs/decisions/0061-cli-one-bundle.md): the published `openwork` runs one bundle (`dist/bundle/`, made by scripts/bundle.mjs
// after tsc). Every other test of this package runs it too (OPENWORK_BIN); these check what a bundle
// could break by itself: the maps, the files other processes start by URL, and `dependencies`.

const bundleFolder = dirname(OPENWORK_BIN);
const cliFolder = join(bundleFolder, '..', '..');
const chunkNames = readdirSync(bundleFolder).filter((name) => name.endsWith('.js'));
const manifestOf = (folder: string) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };

describe('the bundle’s source maps', () => {
  it('lead every function and class declaration back to its line in the TypeScript source', () => {
    let checked = 0;
    for (const name of chunkNames) {
      const code = readFileSync(join(bundleFolder, name), 'utf8');
      if (!code.includes(`//# sourceMappingURL=${name}.map`)) continue; // re-exports only, or the bundler's runtime
      const payload = JSON.parse(readFileSync(join(bundleFolder, `${name}.map`), 'utf8')) as SourceMapPayload;
      const map = new SourceMap(payload);
      expect(payload.sourcesContent?.length, name).toBe(payload.sources.length);
      for (const [index, line] of code.split('\n').entries()) {
        const declaration = /^(?:export )?(?:async )?(?:function\*? |class )([A-Za-z_$][\w$]*)/.exec(line);
        if (declaration === null) continue;
        const entry = map.findEntry(index, declaration.index);
        const source = 'originalSource' in entry ? payload.sources.indexOf(entry.originalSource) : -1;
        // The bundler may rename a declaration that collides with another module's (`fs$1`).
        const declared = (declaration[1] ?? '').replace(/\$\d+$/, '');
        const original = payload.sourcesContent?.[source]?.split('\n')[(entry as { originalLine: number }).originalLine] ?? '';
        // …and names an anonymous default export after its module (`en_default`).
        const expected = /^\s*export default (?:async )?(?:function|class)\b/.test(original) ? 'export default' : declared;
        expect(original, `${name}:${index + 1} ${declaration[1]} → ${payload.sources[source]}`).toContain(expected);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('name the CLI’s own sources as published (../../src) and the others by package, with their text inlined', () => {
    const sources = chunkNames
      .filter((name) => readFileSync(join(bundleFolder, name), 'utf8').includes('//# sourceMappingURL='))
      .flatMap((name) => (JSON.parse(readFileSync(join(bundleFolder, `${name}.map`), 'utf8')) as SourceMapPayload).sources);
    expect(sources).toContain('../../src/bin/openwork.ts');
    expect(sources).toContain('../../node_modules/@openwork/builtins/src/read/read-tool.ts');
    expect(sources.filter((source) => !source.startsWith('../../src/') && !source.startsWith('../../node_modules/'))).toEqual([]);
    expect(sources.filter((source) => /@openwork\/[^/]+\/dist\//.test(source))).toEqual([]);
  });
});

describe('files the bundle starts by URL', () => {
  let sandbox: CliSandbox;
  beforeEach(async () => {
    sandbox = await createCliSandbox();
  });
  afterEach(async () => sandbox.remove());

  it("grep's worker is an entry chunk of its own; a bundled host's bash call stages its writes and leaves no staging folder", async () => {
    expect(chunkNames).toContain('search-worker.js');
    expect(chunkNames).not.toContain('mount-point-registry.js'); // no reaper: nothing is made on the host for a missing name
    const host = startSession(sandbox);
    expect((await host.call('bash', { command: 'echo inside > staged.txt' })).status).toBe('succeeded');
    expect(readFileSync(join(sandbox.workspace, 'staged.txt'), 'utf8')).toBe('inside\n');
    // The call's staging folder is gone (the OpenWork home here lies in a temp root, so it staged in /dev/shm).
    expect(existsSync(join(sandbox.openworkHome, 'staging')) ? readdirSync(join(sandbox.openworkHome, 'staging')) : []).toEqual([]);
    host.child.kill('SIGKILL');
    await eventually(() => processesWith(sandbox.workspace).length === 0, 400);
  });
});

describe('dependencies of the openwork package', () => {
  const loadedByBundle = (): string[] => {
    const found = new Set<string>();
    for (const name of chunkNames) {
      const code = readFileSync(join(bundleFolder, name), 'utf8');
      const forms = [/^(?:import|export)\b[^"\n]*?"([^"]+)";$/gm, /\bimport\("([^"]+)"\)/g, /createRequire\(import\.meta\.url\)\("([^"]+)"\)/g];
      for (const match of forms.flatMap((form) => [...code.matchAll(form)])) {
        const specifier = match[1] ?? '';
        if (specifier.startsWith('node:') || specifier.startsWith('./')) continue;
        found.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? ''));
      }
    }
    return [...found].sort();
  };

  it('are exactly the packages the bundle loads from node_modules, each with its library’s range', () => {
    const dependencies = manifestOf(cliFolder).dependencies ?? {};
    expect(Object.keys(dependencies).sort()).toEqual(loadedByBundle());
    // The library that loads each one declares the same range: the bundle runs that library's code.
    const libraries = ['builtins', 'sandbox', 'store-sqlite', 'store-postgres'].map((name) => manifestOf(join(cliFolder, '..', '..', 'packages', name)).dependencies ?? {});
    for (const [name, range] of Object.entries(dependencies)) {
      expect(libraries.map((library) => library[name]).filter((declared) => declared !== undefined), name).toEqual([range]);
    }
  });

  it('the bundle inlines the OpenWork libraries, zod and the MCP SDK', () => {
    expect(loadedByBundle().filter((name) => name.startsWith('@openwork/') || name === 'zod' || name === '@modelcontextprotocol/sdk')).toEqual([]);
    // What these tests run is what a user runs.
    expect((JSON.parse(readFileSync(join(cliFolder, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin).toEqual({ openwork: './dist/bundle/openwork.js' });
    expect(join(cliFolder, 'dist', 'bundle', 'openwork.js')).toBe(OPENWORK_BIN);
  });
});
