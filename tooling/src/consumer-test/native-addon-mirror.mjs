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
 * The native addons the workspace has already compiled (those `allowBuilds` lets pnpm build), served
 * to the consumer projects through each addon's own prebuilt-binary mirror, so that a consumer
 * project installs them the way a user on a platform with prebuilt binaries does — download, verify,
 * done — instead of compiling each one again in every project (minutes each on two cores). Only the
 * exact version the workspace holds is served, for this Node ABI, platform and architecture; any
 * other version still compiles from source, as it would for a user. An addon without a recipe here
 * compiles in every project: add its recipe when the workspace allows a new one.
 * With `nodeModules` (a flat `node_modules` where the native-addon leg installed the addons as a
 * user on this Node would), those binaries are served instead of the workspace's: the workspace's
 * are built for the Node that ran `pnpm install`, which need not be the Node of this run.
 * @param {{ workspaceRoot: string, mirror: string, allowBuilds: readonly string[], nodeModules?: string }} input
 * @returns {Promise<{ env: Record<string, string>, served: string[] }>} the environment for every
 *   install command, and `name@version` of each addon served
 */
export async function prepareNativeAddonMirror({ workspaceRoot, mirror, allowBuilds, nodeModules }) {
  /** @type {Record<string, string>} */ const env = {};
  /** @type {string[]} */ const served = [];
  for (const name of allowBuilds) {
    const recipe = RECIPES[name];
    if (recipe === undefined) continue;
    for (const packageDirectory of candidateDirectories(name, workspaceRoot, nodeModules)) {
      if (!existsSync(join(packageDirectory, recipe.binary))) continue;
      const version = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')).version;
      Object.assign(env, await recipe.publish({ packageDirectory, version, mirror }));
      served.push(`${name}@${version}`);
      break; // one version per addon: the mirror variables hold one location each
    }
  }
  return { env, served };
}

/**
 * Where an installed copy of addon `name` may be: `<nodeModules>/<name>` when given, else every
 * version in the workspace's pnpm virtual store.
 * @param {string} name
 * @param {string} workspaceRoot
 * @param {string | undefined} nodeModules
 * @returns {string[]}
 */
function candidateDirectories(name, workspaceRoot, nodeModules) {
  if (nodeModules !== undefined) return [join(nodeModules, name)];
  const virtualStore = join(workspaceRoot, 'node_modules', '.pnpm');
  if (!existsSync(virtualStore)) return [];
  const prefix = `${name.replace('/', '+')}@`;
  return readdirSync(virtualStore)
    .filter((candidate) => candidate.startsWith(prefix))
    .map((entry) => join(virtualStore, entry, 'node_modules', name));
}
