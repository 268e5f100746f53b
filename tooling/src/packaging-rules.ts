import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The packaging every publishable package follows (the packaging rules), in one place. Later packages copy a
 * manifest of the four first ones; `findPackagingProblems` (run by the tests) keeps them honest, and
 * the consumer test then proves the packed result works for an outside team.
 */

/**
 * The Node releases people run and we test (architecture §9): 22 (maintenance LTS) and 24 (active
 * LTS). The floors are those of our native dependencies (re2 1.27 and node-gyp 13 declare
 * `^22.22.2 || ^24.15.0`), so `engines` stays true for a package together with what it installs;
 * both also run ES modules and `require()` them (require(esm)). Node 20 reached end of life on
 * 2026-04-30. Every README states the range verbatim.
 */
export const NODE_ENGINE_RANGE = '^22.22.2 || ^24.15.0';

/**
 * The optional `@types/node` peer: any types of a supported release (they do not follow Node's own
 * patch numbers, so the engine range would admit none of the 22.x types).
 */
export const NODE_TYPES_RANGE = '>=22.0.0';

/**
 * Libraries whose types cross our public API (a user's zod schema goes into `defineTool`): always
 * peer dependencies, so the user's copy and ours are one, never two copies that TypeScript keeps
 * apart (TS2322).
 */
export const SHARED_PEER_LIBRARIES: readonly string[] = ['zod'];

/** What `files` must publish: the build, the sources the maps point at, the licence, the README. */
export const PUBLISHED_FILES: readonly string[] = ['dist', 'src', 'LICENSE', 'README.md'];

/** What `files` must keep out of `src`. */
export const UNPUBLISHED_SOURCES: readonly string[] = ['!src/**/*.test.ts', '!src/**/test-support'];

/** The fields of package.json these rules read. */
export interface PublishableManifest {
  readonly name?: string;
  readonly private?: boolean;
  readonly license?: string;
  readonly type?: string;
  readonly sideEffects?: boolean;
  readonly keywords?: readonly string[];
  readonly files?: readonly string[];
  readonly engines?: { readonly node?: string };
  readonly publishConfig?: { readonly access?: string };
  readonly repository?: { readonly directory?: string };
  readonly exports?: unknown;
  readonly bin?: unknown;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
}

/**
 * Every broken packaging rule of the publishable (non-private) packages among `packages`, as
 * `<name>: <what to do>`. `root` holds the LICENSE every package carries a copy of.
 */
export function findPackagingProblems(
  root: string,
  packages: readonly { readonly directory: string; readonly manifest: PublishableManifest }[],
): string[] {
  const problems: string[] = [];
  const licence = existsSync(join(root, 'LICENSE')) ? readFileSync(join(root, 'LICENSE'), 'utf8') : undefined;
  if (licence === undefined) problems.push('the repository has no LICENSE file at its root');
  const byName = new Map(packages.map(({ manifest }) => [manifest.name, manifest]));
  for (const { directory, manifest } of packages) {
    if (manifest.private === true) continue;
    const name = manifest.name ?? directory;
    const problem = (text: string) => problems.push(`${name}: ${text}`);

    if (manifest.license !== 'MIT') problem('set "license": "MIT"');
    const packageLicence = join(root, directory, 'LICENSE');
    if (!existsSync(packageLicence)) problem('copy the root LICENSE into the package (npm publishes a LICENSE only from the package folder)');
    else if (licence !== undefined && readFileSync(packageLicence, 'utf8') !== licence) problem('its LICENSE differs from the root LICENSE; copy it again');
    if (manifest.type !== 'module') problem('set "type": "module" (ESM-only)');
    if (manifest.sideEffects !== false) problem('set "sideEffects": false');
    if (manifest.engines?.node !== NODE_ENGINE_RANGE) problem(`set "engines": { "node": "${NODE_ENGINE_RANGE}" }`);
    if (manifest.publishConfig?.access !== 'public') problem('set "publishConfig": { "access": "public" }');
    if (manifest.repository?.directory !== directory) problem(`set "repository.directory" to "${directory}"`);
    if (!Array.isArray(manifest.keywords) || !manifest.keywords.includes('openwork') || manifest.keywords.length < 3) {
      problem('add "keywords": "openwork" and at least two words a user would search for');
    }
    const files = manifest.files ?? [];
    for (const entry of [...PUBLISHED_FILES, ...UNPUBLISHED_SOURCES]) {
      if (!files.includes(entry)) problem(`add "${entry}" to "files"`);
    }
    for (const [subpath, target] of Object.entries(exportTargets(manifest.exports))) {
      if (typeof target !== 'object' || target === null || Object.keys(target)[0] !== 'types') {
        problem(`exports["${subpath}"] must be an object whose first condition is "types"`);
      }
    }
    // An app (a command, no library entry point) is installed on its own, not next to a user's code:
    // it brings its own copy of everything, so the peer rules below are for libraries only.
    if (isApp(manifest)) {
      for (const library of SHARED_PEER_LIBRARIES) {
        if (manifest.peerDependencies?.[library] !== undefined) problem(`an app installs its own ${library}: move it from "peerDependencies" to "dependencies"`);
      }
      continue;
    }
    for (const library of SHARED_PEER_LIBRARIES) {
      const used = [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies].some((field) => field?.[library] !== undefined);
      const passedOn = Object.keys(manifest.dependencies ?? {}).filter((dependency) => byName.get(dependency)?.peerDependencies?.[library] !== undefined);
      if (manifest.dependencies?.[library] !== undefined) problem(`move ${library} from "dependencies" to "peerDependencies" (with a stated range) and "devDependencies"`);
      else if (used && manifest.peerDependencies?.[library] === undefined) problem(`declare ${library} in "peerDependencies" with the range you support`);
      else if (passedOn.length > 0 && manifest.peerDependencies?.[library] === undefined) {
        problem(`declare ${library} in "peerDependencies": ${passedOn.join(', ')} expects the user's ${library}, so the user must install it next to this package`);
      }
    }
    if (manifest.dependencies?.['@types/node'] !== undefined) problem('@types/node is for TypeScript users only: make it an optional peer dependency');
    const typesPeer = manifest.peerDependencies?.['@types/node'];
    if (typesPeer !== undefined && typesPeer !== NODE_TYPES_RANGE) problem(`set the @types/node peer to "${NODE_TYPES_RANGE}" (the types of every supported Node release)`);
    if (typesPeer !== undefined && manifest.peerDependenciesMeta?.['@types/node']?.optional !== true) {
      problem('mark the @types/node peer optional ("peerDependenciesMeta") so JavaScript users are not made to install it');
    }
  }
  return problems;
}

/** A command-line app: it installs a `bin` and offers no library entry point (`exports["."]`). */
function isApp(manifest: PublishableManifest): boolean {
  const hasBin = typeof manifest.bin === 'string' || (typeof manifest.bin === 'object' && manifest.bin !== null);
  return hasBin && exportTargets(manifest.exports)['.'] === undefined;
}

function exportTargets(exportsField: unknown): Record<string, unknown> {
  if (typeof exportsField !== 'object' || exportsField === null) return { '.': exportsField };
  return Object.fromEntries(Object.entries(exportsField).filter(([subpath]) => subpath !== './package.json'));
}
