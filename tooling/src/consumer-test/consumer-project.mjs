// @ts-check
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runCommand } from './run-command.mjs';

/** @typedef {'npm' | 'pnpm'} PackageManager */

/** The package managers an adopting team uses; each installs into its own project. */
export const PACKAGE_MANAGERS = /** @type {const} */ (['npm', 'pnpm']);

/**
 * A fresh project outside the workspace, as a team adopting our packages would have: an ES module
 * package with nothing installed. Workspace packages are not published yet, so every one of them is
 * pointed at its tarball through the package manager's overrides: whether the README installs it
 * directly or the package under test depends on it, there is one copy, from the tarball.
 */
export class ConsumerProject {
  /**
   * @param {{
   *   directory: string,
   *   packageManager: PackageManager,
   *   tarballOverrides: Readonly<Record<string, string>>,
   *   env: NodeJS.ProcessEnv,
   *   storeDirectory?: string,
   *   builds?: Readonly<Record<string, boolean>>,
   * }} options `builds`: dependencies whose build scripts pnpm may run (`true`, native addons to
   *   compile) or must not run (`false`: the package ships its binary), as the workspace decides
   *   them; a pnpm user must decide the same ones, or pnpm stops with ERR_PNPM_IGNORED_BUILDS
   */
  constructor({ directory, packageManager, tarballOverrides, env, storeDirectory, builds = {} }) {
    this.directory = directory;
    this.packageManager = packageManager;
    this.env = env;
    this.storeDirectory = storeDirectory;
    mkdirSync(directory, { recursive: true });
    const overrides = Object.fromEntries(Object.entries(tarballOverrides).map(([name, tarball]) => [name, `file:${this.tarballSpec(tarball)}`]));
    /** @type {Record<string, unknown>} */
    const manifest = { name: 'openwork-consumer', version: '1.0.0', private: true, type: 'module' };
    if (packageManager === 'npm' && Object.keys(overrides).length > 0) manifest['overrides'] = overrides;
    writeFileSync(join(directory, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    if (packageManager === 'pnpm') {
      // pnpm reads overrides from pnpm-workspace.yaml; JSON is valid YAML.
      writeFileSync(join(directory, 'pnpm-workspace.yaml'), `overrides: ${JSON.stringify(overrides)}\nallowBuilds: ${JSON.stringify(builds)}\n`);
    }
  }

  /**
   * How this project names a tarball in an install command. npm accepts an override of a direct
   * dependency only when both are spelled exactly alike, and it saves a tarball path relative to
   * the project, so npm gets that relative path in both places.
   * @param {string} tarball absolute path
   */
  tarballSpec(tarball) {
    return this.packageManager === 'npm' ? relative(this.directory, tarball) : tarball;
  }

  /**
   * `npm install …` / `pnpm add …` of `specs` (names, `name@range`, tarball paths), preferring what
   * the local cache or store already holds so that a warm machine needs no network.
   * @param {readonly string[]} specs
   * @param {{ dev: boolean }} options
   */
  install(specs, { dev }) {
    const args =
      this.packageManager === 'npm'
        ? ['install', '--no-audit', '--no-fund', '--prefer-offline', ...(dev ? ['--save-dev'] : []), ...specs]
        : ['add', '--prefer-offline', ...(dev ? ['-D'] : []), ...(this.storeDirectory ? ['--store-dir', this.storeDirectory] : []), ...specs];
    return runCommand(this.packageManager, args, { cwd: this.directory, env: this.env, timeoutMs: 300_000 });
  }
}

/**
 * The decisions under `allowBuilds:` in a pnpm-workspace.yaml (`  name: true|false` lines): the
 * native addons the workspace lets pnpm build, and those it must not build (they ship binaries).
 * @param {string} workspaceYaml
 * @returns {Record<string, boolean>}
 */
export function readBuildDecisions(workspaceYaml) {
  const lines = workspaceYaml.split('\n');
  const start = lines.findIndex((line) => /^allowBuilds:\s*(?:#.*)?$/.test(line));
  /** @type {Record<string, boolean>} */ const decisions = {};
  if (start === -1) return decisions;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const entry = /^\s+['"]?([^'":#\s]+)['"]?\s*:\s*(true|false)\b/.exec(line);
    if (entry?.[1] !== undefined) decisions[entry[1]] = entry[2] === 'true';
  }
  return decisions;
}

/**
 * The names under `allowBuilds:` with `true`: the native addons the workspace lets pnpm build.
 * @param {string} workspaceYaml
 * @returns {string[]}
 */
export function readAllowedBuilds(workspaceYaml) {
  return Object.entries(readBuildDecisions(workspaceYaml)).filter(([, allowed]) => allowed).map(([name]) => name);
}
