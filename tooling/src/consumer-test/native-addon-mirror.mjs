// @ts-check
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from './run-command.mjs';

/**
 * How one native addon fetches a prebuilt binary instead of compiling, through the download mirror
 * its own install script documents, and how to lay out the binary the workspace already built so
 * that mirror finds it.
 * @typedef {object} AddonRecipe
 * @property {string} binary the built file inside the package, e.g. `build/Release/re2.node`
 * @property {(input: { packageDirectory: string, version: string, mirror: string }) => Promise<Record<string, string>>} publish
 *   puts the binary under `mirror` and returns the environment that points the install script at it
 */

/** @type {Readonly<Record<string, AddonRecipe>>} */
const RECIPES = {
  // re2 installs with install-artifact-from-github: `<RE2_DOWNLOAD_MIRROR>/<version>/<platform>-<arch>-<abi>`
  // (RE2_DOWNLOAD_SKIP_PATH drops the GitHub `owner/repo/releases/download` part; a local path is read as a file).
  // It then runs the package's own verify-build before keeping the binary.
  re2: {
    binary: 'build/Release/re2.node',
    async publish({ packageDirectory, version, mirror }) {
      const directory = join(mirror, 're2', version);
      mkdirSync(directory, { recursive: true });
      copyFileSync(join(packageDirectory, 'build', 'Release', 're2.node'), join(directory, `${process.platform}-${process.arch}-${process.versions.modules}`));
      return { RE2_DOWNLOAD_MIRROR: join(mirror, 're2'), RE2_DOWNLOAD_SKIP_PATH: '1' };
    },
  },
  // better-sqlite3 installs with prebuild-install, which looks in `npm_config_<name>_local_prebuilds`
  // for `<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz` before downloading.
  'better-sqlite3': {
    binary: 'build/Release/better_sqlite3.node',
    async publish({ packageDirectory, version, mirror }) {
      const directory = join(mirror, 'better-sqlite3');
      mkdirSync(directory, { recursive: true });
      const archive = join(directory, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
      const packed = await runCommand('tar', ['-czf', archive, '-C', packageDirectory, 'build/Release/better_sqlite3.node'], { cwd: directory });
      if (packed.exitCode !== 0) throw new Error(`could not pack the better-sqlite3 binary: ${packed.stderr}`);
      return { npm_config_better_sqlite3_local_prebuilds: directory };
    },
  },
};

/**
 * Whether the consumer test knows how to serve a prebuilt binary of addon `name` to its projects.
 * @param {string} name
 */
export function canServeNativeAddon(name) {
  return Object.hasOwn(RECIPES, name);
}

/**
 * The native addons already compiled here (by the workspace's install, or once by the consumer
 * test itself), served to the consumer projects through each addon's own prebuilt-binary mirror, so
 * that a consumer project installs them the way a user on a platform with prebuilt binaries does —
 * download, verify, done — instead of compiling each one again in every project (minutes each on two
 * cores). Only the version a consumer's resolver picks for our range (`wanted`) is served, for this
 * Node ABI, platform and architecture: a binary of another version would not match what the project
 * installs, and that project would compile from source. An addon without a recipe here compiles in
 * every project: add its recipe when the workspace allows a new one.
 * Copies are looked for in `nodeModules` (flat `node_modules` folders where an addon was installed
 * as a user on this Node would, searched in order), then in the workspace's pnpm virtual store.
 * @param {{ workspaceRoot: string, mirror: string, allowBuilds: readonly string[], nodeModules?: readonly string[], wanted?: ReadonlyMap<string, string> }} input
 *   `wanted`: addon name → the one version to serve (default: the first built copy found)
 * @returns {Promise<{ env: Record<string, string>, served: string[], missing: string[] }>} the
 *   environment for every install command, `name@version` of each addon served, and `name@version`
 *   of each wanted addon no built copy was found for
 */
export async function prepareNativeAddonMirror({ workspaceRoot, mirror, allowBuilds, nodeModules = [], wanted }) {
  /** @type {Record<string, string>} */ const env = {};
  /** @type {string[]} */ const served = [];
  /** @type {string[]} */ const missing = [];
  for (const name of allowBuilds) {
    const recipe = RECIPES[name];
    if (recipe === undefined) continue;
    const version = wanted?.get(name);
    const found = candidateDirectories(name, workspaceRoot, nodeModules).find(
      (packageDirectory) => existsSync(join(packageDirectory, recipe.binary)) && (version === undefined || versionOf(packageDirectory) === version),
    );
    if (found === undefined) {
      if (version !== undefined) missing.push(`${name}@${version}`);
      continue;
    }
    const foundVersion = versionOf(found);
    // one version per addon: the mirror variables hold one location each
    Object.assign(env, await recipe.publish({ packageDirectory: found, version: foundVersion, mirror }));
    served.push(`${name}@${foundVersion}`);
  }
  return { env, served, missing };
}

/** @param {string} packageDirectory */
function versionOf(packageDirectory) {
  return String(JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')).version);
}

/**
 * Where an installed copy of addon `name` may be: `<nodeModules>/<name>` for each folder given,
 * then every version in the workspace's pnpm virtual store.
 * @param {string} name
 * @param {string} workspaceRoot
 * @param {readonly string[]} nodeModules
 * @returns {string[]}
 */
function candidateDirectories(name, workspaceRoot, nodeModules) {
  const candidates = nodeModules.map((folder) => join(folder, name)).filter((directory) => existsSync(join(directory, 'package.json')));
  const virtualStore = join(workspaceRoot, 'node_modules', '.pnpm');
  if (!existsSync(virtualStore)) return candidates;
  const prefix = `${name.replace('/', '+')}@`;
  return [
    ...candidates,
    ...readdirSync(virtualStore)
      .filter((candidate) => candidate.startsWith(prefix))
      .map((entry) => join(virtualStore, entry, 'node_modules', name)),
  ];
}
