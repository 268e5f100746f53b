import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The whole package graph of architecture.md §1. A workspace package may depend on exactly the
 * workspace packages listed for it; anything else is a layering bug. `core` sits above every
 * library so nothing but `core` and `apps/*` may reach it (spec §4: tools never depend on core).
 */
export const ALLOWED_WORKSPACE_EDGES: Readonly<Record<string, readonly string[]>> = {
  '@openwork/tools-contract': [],
  '@openwork/sandbox': [],
  '@openwork/fs-backend': [],
  '@openwork/process-backend': [],
  '@openwork/builtins': [
    '@openwork/tools-contract',
    '@openwork/sandbox',
    '@openwork/fs-backend',
    '@openwork/process-backend',
  ],
  '@openwork/session-store': ['@openwork/tools-contract'],
  '@openwork/store-sqlite': ['@openwork/session-store', '@openwork/tools-contract'],
  '@openwork/store-postgres': ['@openwork/session-store', '@openwork/tools-contract'],
  '@openwork/core': [
    '@openwork/tools-contract',
    '@openwork/sandbox',
    '@openwork/fs-backend',
    '@openwork/process-backend',
    '@openwork/builtins',
    '@openwork/session-store',
  ],
  '@openwork/ai-sdk': ['@openwork/core', '@openwork/builtins', '@openwork/tools-contract'],
  openwork: ['@openwork/core', '@openwork/builtins', '@openwork/store-sqlite', '@openwork/store-postgres'],
};

/**
 * Edges a package may have for its tests only: as `devDependencies`, which are never installed
 * with the published package, never in its build (no tsconfig project reference) and never
 * imported by its non-test source (`findTestOnlyImports`). Core's runtime depends on the store
 * interface only (§1); its end-to-end test runs a whole session on a real SQLite file,
 * so it may use the embedded store as a devDependency; its sub-agent tests run two runtime
 * processes on one PostgreSQL database (the sub-agent tests), so it may use that store the same way. The AI SDK adapter's tests and README example
 * need a session, so a store: they use the in-memory one — and nothing else may.
 */
export const ALLOWED_TEST_EDGES: Readonly<Record<string, readonly string[]>> = {
  '@openwork/core': ['@openwork/store-sqlite', '@openwork/store-postgres'],
  '@openwork/ai-sdk': ['@openwork/session-store'],
};

/**
 * Private shared configuration. Packages use it through the root package.json, never their own:
 * pnpm pack keeps devDependencies, so a published manifest would name an unpublished package.
 */
export const TOOLING_PACKAGE = '@openwork/tooling';

/** Packages whose source must stay free of Node built-ins (the contract runs anywhere). */
export const PLATFORM_FREE_PACKAGES: readonly string[] = ['@openwork/tools-contract'];

export interface WorkspacePackage {
  /** Directory relative to the workspace root, e.g. `packages/sandbox`. */
  readonly directory: string;
  readonly manifest: PackageManifest;
  /** `references[].path` of the package's tsconfig.json, resolved to package directories. */
  readonly tsconfigReferences?: readonly string[];
}

export interface PackageManifest {
  readonly name?: string;
  readonly private?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

export interface GraphViolation {
  readonly from: string;
  readonly to?: string;
  readonly reason: string;
}

const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
] as const;

/** Every edge that is not in `allowed`, plus packages the graph does not know. */
export function findGraphViolations(
  packages: readonly WorkspacePackage[],
  allowed: Readonly<Record<string, readonly string[]>> = ALLOWED_WORKSPACE_EDGES,
  allowedForTests: Readonly<Record<string, readonly string[]>> = ALLOWED_TEST_EDGES,
): GraphViolation[] {
  const violations: GraphViolation[] = [];
  const names = new Set(packages.map((entry) => entry.manifest.name).filter(isString));
  const byDirectory = new Map(packages.map((entry) => [entry.directory, entry.manifest.name]));

  for (const entry of packages) {
    const from = entry.manifest.name ?? entry.directory;
    if (from === TOOLING_PACKAGE) continue;
    const permitted = allowed[from];
    if (permitted === undefined) {
      violations.push({
        from,
        reason: `${from} (${entry.directory}) is not in the package graph of architecture.md §1; add it there first`,
      });
      continue;
    }
    const declared = new Set<string>();
    const testOnly = new Set<string>();
    for (const field of DEPENDENCY_FIELDS) {
      for (const to of Object.keys(entry.manifest[field] ?? {})) {
        if (to === TOOLING_PACKAGE) {
          violations.push({
            from,
            to,
            reason: `${from} names the private ${TOOLING_PACKAGE} in ${field}; remove it (the root package.json provides it to every package)`,
          });
          continue;
        }
        if (!names.has(to) && allowed[to] === undefined) continue; // a registry package
        if (field === 'devDependencies' && !permitted.includes(to) && (allowedForTests[from] ?? []).includes(to)) {
          testOnly.add(to);
          continue;
        }
        declared.add(to);
        if (!permitted.includes(to)) {
          violations.push({ from, to, reason: `${from} may not depend on ${to} (${field})` });
        }
      }
    }
    for (const referenced of entry.tsconfigReferences ?? []) {
      const to = byDirectory.get(referenced) ?? referenced;
      if (to === TOOLING_PACKAGE) continue;
      if (testOnly.has(to)) {
        violations.push({ from, to, reason: `${from}'s tsconfig references ${to}, which it may use in tests only; the build must not see it` });
      } else if (!permitted.includes(to)) {
        violations.push({ from, to, reason: `${from}'s tsconfig references ${to}, which it may not depend on` });
      } else if (!declared.has(to)) {
        violations.push({ from, to, reason: `${from}'s tsconfig references ${to} but package.json does not declare it` });
      }
    }
    if (entry.tsconfigReferences !== undefined) {
      const referencedNames = new Set(entry.tsconfigReferences.map((path) => byDirectory.get(path) ?? path));
      for (const to of declared) {
        if (!referencedNames.has(to)) {
          violations.push({ from, to, reason: `${from} depends on ${to} but its tsconfig has no project reference to it` });
        }
      }
    }
  }
  return violations;
}

const BUILTIN_NAMES = new Set(builtinModules.filter((name) => !name.startsWith('_')));
const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;

/** Imports of Node built-ins (`node:fs`, or bare `fs`) in a source text. */
export function findNodeImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT_SPECIFIER)) {
    const specifier = match[2] ?? '';
    if (specifier.startsWith('node:') || BUILTIN_NAMES.has(specifier.split('/')[0] ?? '')) {
      found.push(specifier);
    }
  }
  return found;
}

/**
 * Imports of a test-only dependency (`ALLOWED_TEST_EDGES`) in the non-test source of a package,
 * as `file: specifier`: what the published package runs must not need it.
 */
export function findTestOnlyImports(
  root: string,
  packages: readonly WorkspacePackage[],
  allowedForTests: Readonly<Record<string, readonly string[]>> = ALLOWED_TEST_EDGES,
): string[] {
  const violations: string[] = [];
  for (const entry of packages) {
    const testOnly = allowedForTests[entry.manifest.name ?? ''] ?? [];
    if (testOnly.length === 0) continue;
    for (const file of listSourceFiles(join(root, entry.directory, 'src'))) {
      if (isTestSource(file)) continue;
      for (const specifier of findImportSpecifiers(readFileSync(file, 'utf8'))) {
        if (testOnly.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
          violations.push(`${relative(root, file)}: ${specifier}`);
        }
      }
    }
  }
  return violations;
}

/** Tests and their support files: `*.test.ts` and anything below a `test-support/` folder. */
function isTestSource(file: string): boolean {
  return /\.test\.ts$/.test(file) || /[\\/]test-support[\\/]/.test(file);
}

/** Every module specifier imported by a source text. */
function findImportSpecifiers(source: string): string[] {
  return [...source.matchAll(IMPORT_SPECIFIER)].map((match) => match[2] ?? '');
}

/** Reads every workspace package (packages/*, apps/*, tooling) under `root`. */
export function readWorkspace(root: string): WorkspacePackage[] {
  const directories: string[] = [];
  for (const group of ['packages', 'apps']) {
    const groupDirectory = join(root, group);
    if (!existsSync(groupDirectory)) continue;
    for (const name of readdirSync(groupDirectory).sort()) {
      if (existsSync(join(groupDirectory, name, 'package.json'))) directories.push(`${group}/${name}`);
    }
  }
  if (existsSync(join(root, 'tooling', 'package.json'))) directories.push('tooling');
  return directories.map((directory) => {
    const manifest = JSON.parse(readFileSync(join(root, directory, 'package.json'), 'utf8')) as PackageManifest;
    const tsconfigPath = join(root, directory, 'tsconfig.json');
    const tsconfigReferences = existsSync(tsconfigPath) ? readReferences(root, directory, tsconfigPath) : undefined;
    return tsconfigReferences === undefined ? { directory, manifest } : { directory, manifest, tsconfigReferences };
  });
}

/** Node built-in imports in the `src` of the platform-free packages, as `file: specifier`. */
export function findPlatformViolations(root: string, packages: readonly WorkspacePackage[]): string[] {
  const violations: string[] = [];
  for (const entry of packages) {
    if (!PLATFORM_FREE_PACKAGES.includes(entry.manifest.name ?? '')) continue;
    for (const file of listSourceFiles(join(root, entry.directory, 'src'))) {
      if (/\.test\.ts$/.test(file)) continue;
      for (const specifier of findNodeImports(readFileSync(file, 'utf8'))) {
        violations.push(`${relative(root, file)}: ${specifier}`);
      }
    }
  }
  return violations;
}

function readReferences(root: string, directory: string, tsconfigPath: string): string[] {
  // tsconfig.json allows comments; ours do not use them, so JSON.parse is enough and strict.
  const tsconfig = JSON.parse(readFileSync(tsconfigPath, 'utf8')) as { references?: { path: string }[] };
  return (tsconfig.references ?? []).map((reference) =>
    relative(root, join(root, directory, reference.path)).split('\\').join('/'),
  );
}

function listSourceFiles(directory: string): string[] {
  if (!existsSync(directory)) return [];
  const files: string[] = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) files.push(...listSourceFiles(path));
    else if (/\.(?:ts|mts|cts|js|mjs|cjs)$/.test(name)) files.push(path);
  }
  return files;
}

function isString(value: string | undefined): value is string {
  return typeof value === 'string';
}
