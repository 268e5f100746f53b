// @ts-check
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const DEPENDENCY_FIELDS = /** @type {const} */ (['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']);
const TEST_FILE = /(?:\.test\.[cm]?[jt]sx?(?:\.map)?|\.test\.d\.[cm]?ts(?:\.map)?)$|(?:^|\/)test-support\//;

/**
 * What is wrong with an unpacked tarball (its `package/` folder) as a user receives it — the checks
 * that only make sense on what `pnpm pack` produced, not on the workspace folder:
 * - the manifest names no private workspace package and no `workspace:` range, in any dependency
 *   field (pnpm pack rewrites `workspace:` ranges but keeps devDependencies);
 * - LICENSE and README.md are inside;
 * - every source map resolves: each source is in the tarball or inlined in `sourcesContent`;
 * - no test files or test support code are shipped.
 * @param {string} packageDirectory the unpacked `package/` folder
 * @param {{ privateNames: ReadonlySet<string> }} workspace names of the private workspace packages
 * @returns {string[]} one sentence per problem, empty when the tarball is fine
 */
export function inspectTarball(packageDirectory, { privateNames }) {
  /** @type {string[]} */ const problems = [];
  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (privateNames.has(name)) {
        problems.push(`the packed package.json names the private workspace package ${name} in ${field}; remove it (a shared dev tool belongs in the root package.json)`);
      } else if (String(range).startsWith('workspace:')) {
        problems.push(`the packed package.json keeps the range ${name}@${range} in ${field}; only pnpm pack/publish rewrite it, so pack with pnpm`);
      }
    }
  }
  for (const required of ['LICENSE', 'README.md']) {
    if (!existsSync(join(packageDirectory, required))) problems.push(`${required} is not in the tarball; add it to "files"`);
  }
  const files = listFiles(packageDirectory);
  for (const file of files) {
    const path = relative(packageDirectory, file).split(sep).join('/');
    if (TEST_FILE.test(path)) problems.push(`${path} is test code and is shipped; exclude it in "files"`);
    if (path.endsWith('.map')) problems.push(...unresolvedSources(packageDirectory, file, path));
  }
  return problems;
}

/**
 * @param {string} packageDirectory
 * @param {string} mapFile
 * @param {string} mapPath the map's path inside the package, for messages
 */
function unresolvedSources(packageDirectory, mapFile, mapPath) {
  /** @type {{ sources?: unknown, sourcesContent?: unknown, sourceRoot?: unknown }} */
  let map;
  try {
    map = JSON.parse(readFileSync(mapFile, 'utf8'));
  } catch (error) {
    return [`${mapPath} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`];
  }
  const sources = Array.isArray(map.sources) ? map.sources : [];
  const contents = Array.isArray(map.sourcesContent) ? map.sourcesContent : [];
  const root = typeof map.sourceRoot === 'string' ? map.sourceRoot : '';
  /** @type {string[]} */ const problems = [];
  sources.forEach((source, index) => {
    if (typeof contents[index] === 'string') return;
    const target = resolve(dirname(mapFile), root, String(source));
    const inside = !relative(packageDirectory, target).startsWith('..');
    if (!inside || !existsSync(target)) {
      problems.push(`${mapPath} points at ${source}, which is not in the tarball and not inlined (ship the sources or set inlineSources)`);
    }
  });
  return problems;
}

/** @param {string} directory */
function listFiles(directory) {
  /** @type {string[]} */ const files = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) files.push(...listFiles(path));
    else files.push(path);
  }
  return files;
}
