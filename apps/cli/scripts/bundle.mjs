#!/usr/bin/env node
// @ts-check
// The `openwork` executable as one bundle (architecture §5: `openwork call` start-up
// ≤ 250 ms). Run by `pnpm build` after `tsc -b`: it bundles the compiled CLI (`dist/bin/openwork.js`)
// with the OpenWork libraries, zod and the MCP SDK into `dist/bundle/`, where the published `bin`
// points. Node then reads a few dozen files instead of ~440 modules. Lazy loading stays: every
// dynamic `import()` (a tool's call code, the MCP SDK, a store driver) is a chunk of its own,
// loaded on first use. The library packages themselves stay unbundled: they are published and
// installed one by one.
//
// What a bundle must not break, each a named step below, and each failing the build rather than
// shipping a bundle that breaks at run time:
// 1. externals: the package's `dependencies` and nothing else stay outside (native addons, `pg`,
//    and the modules the libraries load with `createRequire`); everything else is inlined, so
//    `dependencies` says exactly what the bundle loads from `node_modules` (`checkExternals`).
// 2. files started by URL: the mount-point reaper (a Node process that imports the sandbox's
//    registry module by its file URL) and grep's worker threads (`search-worker.js` next to the
//    pool) get entry chunks of their own, with their own names and exports (`checkFileUrlEntries`).
// 3. `import.meta`: every use in the bundle is one of the known ones below; a new one fails the
//    build until it is looked at (`checkImportMeta`).
// 4. source maps: each chunk's map leads back to the TypeScript sources (the tsc maps are read and
//    chained, `withInputSourceMap`), with the sources inlined.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const cliDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
const outputDirectory = join(cliDirectory, 'dist', 'bundle');
const manifest = JSON.parse(readFileSync(join(cliDirectory, 'package.json'), 'utf8'));

/** Where a package is installed as seen from `from` (a package folder): its folder. */
function packageFolder(name, from) {
  return dirname(createRequire(join(from, 'package.json')).resolve(`${name}/package.json`));
}

const coreFolder = packageFolder('@openwork/core', cliDirectory);
const builtinsFolder = packageFolder('@openwork/builtins', cliDirectory);
const sandboxFolder = packageFolder('@openwork/sandbox', coreFolder);

/**
 * Entry chunks: the executable, and the two modules other processes and threads start by file
 * URL. `file` is the chunk's name in `dist/bundle/`, which the code that starts it expects.
 */
const ENTRIES = [
  { name: 'openwork', module: join(cliDirectory, 'dist', 'bin', 'openwork.js'), exports: [] },
  // startMountPointReaper: `await import(mountPointRegistryModule)`, then `runMountPointReaper`.
  { name: 'mount-point-registry', module: join(sandboxFolder, 'dist', 'bubblewrap', 'mount-point-registry.js'), exports: ['runMountPointReaper'], nodeOnly: true },
  // SearchWorkerPool: `new Worker(new URL('./search-worker.js', import.meta.url))`.
  { name: 'search-worker', module: join(builtinsFolder, 'dist', 'search', 'search-worker.js'), exports: [] },
];

/**
 * Every `import.meta` use the bundle may hold, by the module it comes from, and why it still works
 * there. `rewrite` replaces a use that would not.
 */
const IMPORT_META_USES = [
  // The bundler's own runtime: `require` for the CommonJS modules it inlined (the MCP SDK's
  // dependencies), which require Node's built-ins or other inlined modules only.
  { module: '\0rolldown/runtime.js', text: 'import.meta.url' },
  // The reaper imports this module by URL and calls `runMountPointReaper`: in the bundle, the
  // entry chunk `mount-point-registry.js` (ENTRIES), which exports it by that name. The module
  // itself may sit in a shared chunk, whose export names the bundler shortens.
  {
    module: 'sandbox/dist/bubblewrap/mount-point-registry.js',
    text: 'export const mountPointRegistryModule = import.meta.url;',
    rewrite: "export const mountPointRegistryModule = new URL('./mount-point-registry.js', import.meta.url).href;",
  },
  // `search-worker.js` is an entry chunk in the same folder as every other chunk.
  { module: 'builtins/dist/search/search-worker-pool.js', text: "new URL('./search-worker.js', import.meta.url)" },
  // `dist/bundle/` is as deep as `dist/cli/`: `../../package.json` is still the CLI's manifest.
  { module: 'cli/dist/cli/cli-version.js', text: "new URL('../../package.json', import.meta.url)" },
  // createRequire of a package in `dependencies` (checkExternals): resolved from the bundle's
  // folder, that is from the openwork package, which depends on it.
  { module: 'sandbox/dist/command/parse-shell-script.js', text: 'createRequire(import.meta.url)' },
  { module: 'builtins/dist/search/load-re2.js', text: 'createRequire(import.meta.url)' },
  { module: 'builtins/dist/search/load-rust-regex.js', text: 'createRequire(import.meta.url)' },
  { module: 'store-sqlite/dist/open-sqlite-database.js', text: 'createRequire(import.meta.url)' },
  // The remembered sandbox check is keyed on the file that holds the sandbox code; in the bundle
  // that is the chunk of core's runtime (checked in `checkSandboxModule`: the chunk with the sandbox
  // backends). Its name carries a content hash, so another sandbox release is another file.
  {
    module: 'core/dist/runtime/sandbox-module.js',
    text: "import.meta.resolve('@openwork/sandbox')",
    rewrite: 'import.meta.url',
  },
];

/** The module's path as IMPORT_META_USES names it: `<package folder>/dist/…`. */
function shortId(id) {
  const parts = id.split(sep);
  const dist = parts.lastIndexOf('dist');
  return dist > 0 ? parts.slice(dist - 1).join('/') : id;
}

/** Step 4: a compiled module with its tsc map, sources inlined, so the bundle's maps chain to TypeScript. */
function withInputSourceMap() {
  return {
    name: 'openwork-input-source-maps',
    load(id) {
      if (!id.endsWith('.js') || !existsSync(`${id}.map`)) return null;
      const code = readFileSync(id, 'utf8');
      const map = JSON.parse(readFileSync(`${id}.map`, 'utf8'));
      if (!Array.isArray(map.sourcesContent)) {
        const sources = map.sources.map((/** @type {string} */ source) => join(dirname(id), map.sourceRoot ?? '', source));
        if (!sources.every((/** @type {string} */ source) => existsSync(source))) return null; // a map we cannot chain: the JavaScript is the source
        map.sourcesContent = sources.map((/** @type {string} */ source) => readFileSync(source, 'utf8'));
      }
      return { code, map };
    },
  };
}

/** Step 3: apply IMPORT_META_USES' rewrites, and refuse a module with an `import.meta` use not listed. */
function checkImportMeta() {
  return {
    name: 'openwork-import-meta',
    transform(/** @type {string} */ code, /** @type {string} */ id) {
      if (!code.includes('import.meta')) return null;
      const module = shortId(id);
      const uses = IMPORT_META_USES.filter((entry) => entry.module === module);
      for (const use of uses) {
        if (!code.includes(use.text)) throw new Error(`bundle: ${module} no longer holds \`${use.text}\`; update IMPORT_META_USES in apps/cli/scripts/bundle.mjs`);
      }
      if (uses.reduce((rest, use) => rest.replaceAll(use.text, ''), code).includes('import.meta')) {
        throw new Error(`bundle: ${module} uses import.meta in a way the bundle does not know (${id}); check that it works from dist/bundle/ and list it in IMPORT_META_USES`);
      }
      const rewritten = uses.reduce((text, use) => (use.rewrite === undefined ? text : text.replaceAll(use.text, use.rewrite)), code);
      // A rewrite stays on its line: the module's map still holds for every other line.
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}

/** Whether `specifier` is one of the package's dependencies (or a subpath of one). */
function isDependency(specifier) {
  return Object.keys(manifest.dependencies ?? {}).some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** Step 4, the paths: the CLI's own sources stay `../../src/…` (published); others read `../../node_modules/<package>/…`. */
function sourcePath(/** @type {string} */ source, /** @type {string} */ mapPath) {
  const absolute = join(dirname(mapPath), source);
  if (absolute.startsWith(join(cliDirectory, 'src') + sep)) return relative(dirname(mapPath), absolute);
  const modules = absolute.lastIndexOf(`${sep}node_modules${sep}`);
  if (modules >= 0) {
    const inside = absolute.slice(modules + '/node_modules/'.length).split(sep);
    const at = inside.lastIndexOf('node_modules');
    return `../../node_modules/${inside.slice(at + 1).join('/')}`;
  }
  const workspacePackages = join(cliDirectory, '..', '..', 'packages') + sep;
  if (absolute.startsWith(workspacePackages)) {
    const [folder, ...rest] = absolute.slice(workspacePackages.length).split(sep);
    const name = JSON.parse(readFileSync(join(workspacePackages, folder ?? '', 'package.json'), 'utf8')).name;
    return `../../node_modules/${name}/${rest.join('/')}`;
  }
  return source;
}

const bundle = await rolldown({
  input: Object.fromEntries(ENTRIES.map((entry) => [entry.name, entry.module])),
  cwd: cliDirectory,
  platform: 'node',
  // Step 1: `node:` built-ins and `dependencies` stay imports; everything else is inlined.
  external: (specifier) => specifier.startsWith('node:') || isDependency(specifier),
  preserveEntrySignatures: 'allow-extension',
  plugins: [withInputSourceMap(), checkImportMeta()],
  checks: { pluginTimings: false },
  // An import the bundler cannot resolve would fail only at run time: fail the build instead.
  onLog(level, log, handler) {
    if (log.code === 'UNRESOLVED_IMPORT') throw new Error(`bundle: ${log.message}; add the package to dependencies (kept outside) or install it (inlined)`);
    handler(level, log);
  },
});
rmSync(outputDirectory, { recursive: true, force: true });
const { output } = await bundle.write({
  dir: outputDirectory,
  format: 'esm',
  sourcemap: true,
  sourcemapPathTransform: sourcePath,
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
});
await bundle.close();

const chunks = output.filter((item) => item.type === 'chunk');

/** The specifiers outside the bundle that `chunk` loads, itself or through the chunks it imports. */
function externalImports(chunk, seen = new Set()) {
  if (seen.has(chunk.fileName)) return [];
  seen.add(chunk.fileName);
  return chunk.imports.flatMap((specifier) => {
    const imported = chunks.find((item) => item.fileName === specifier);
    return imported === undefined ? [specifier] : externalImports(imported, seen);
  });
}

/** Step 2: each entry chunk has the name its starter expects, its module and its exports. */
function checkFileUrlEntries() {
  for (const entry of ENTRIES) {
    const chunk = chunks.find((item) => item.isEntry && item.name === entry.name);
    if (chunk === undefined || chunk.fileName !== `${entry.name}.js`) throw new Error(`bundle: no entry chunk ${entry.name}.js`);
    if (chunk.facadeModuleId !== entry.module) throw new Error(`bundle: ${entry.name}.js is not the entry of ${entry.module}`);
    for (const name of entry.exports) if (!chunk.exports.includes(name)) throw new Error(`bundle: ${entry.name}.js does not export ${name}`);
    // The reaper runs with an empty environment from `/`: it must load nothing but Node's own modules.
    const outside = externalImports(chunk).filter((specifier) => !specifier.startsWith('node:'));
    if (entry.nodeOnly && outside.length > 0) throw new Error(`bundle: ${entry.name}.js loads ${outside.join(', ')}; it may load node: modules only`);
  }
}

/** Step 3: the chunk that answers SANDBOX_MODULE_URL also holds the sandbox backends. */
function checkSandboxModule() {
  const sandboxModule = chunks.find((chunk) => chunk.moduleIds.some((id) => shortId(id) === 'core/dist/runtime/sandbox-module.js'));
  if (sandboxModule === undefined) throw new Error("bundle: core's sandbox-module.js is not in the bundle");
  if (!sandboxModule.moduleIds.some((id) => shortId(id) === 'sandbox/dist/bubblewrap/bubblewrap-backend.js')) {
    throw new Error(`bundle: core's sandbox-module.js and the sandbox backends are in different chunks; SANDBOX_MODULE_URL would not name the sandbox's code`);
  }
}

/** Step 1: every dependency is loaded by the bundle (a dependency it never loads is not one). */
function checkExternals() {
  const code = chunks.map((chunk) => chunk.code).join('\n');
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const loaded = [`from "${name}"`, `import("${name}")`, `)("${name}")`].some((form) => code.includes(form));
    if (!loaded) throw new Error(`bundle: the bundle never loads the dependency ${name}; remove it from dependencies, or keep it external`);
  }
}

checkFileUrlEntries();
checkSandboxModule();
checkExternals();
const moduleCount = new Set(chunks.flatMap((chunk) => chunk.moduleIds)).size;
console.log(`bundle: ${moduleCount} modules in ${chunks.length} chunks in ${relative(cliDirectory, outputDirectory)}/`);
