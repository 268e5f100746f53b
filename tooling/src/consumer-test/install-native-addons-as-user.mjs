// @ts-check
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeFailure, runCommand } from './run-command.mjs';

/**
 * @typedef {object} NativeAddonCheck
 * @property {string} packageName `name@version` of the addon
 * @property {string} name what an outside user met, e.g. `as a user installs it, Node v22.22.2 (npm): no prebuilt binary reachable, compiled from source (143 s); loads and works`
 * @property {boolean} ok the addon installed and works on this Node
 * @property {string} [detail] why not
 */

/**
 * A small use of each addon we depend on, so "it installed" also means "it loads and answers on
 * this Node" (better-sqlite3 12 installed on Node 24 and then aborted processes at exit).
 * @type {Readonly<Record<string, string>>}
 */
const SMOKE_TESTS = {
  re2: "const RE2 = require('re2'); if (!new RE2('b+').test('abbc')) throw new Error('re2 did not match');",
  'better-sqlite3':
    "const Database = require('better-sqlite3'); const db = new Database(':memory:'); if (db.prepare('select 40 + 2 as x').get().x !== 42) throw new Error('better-sqlite3 answered wrong'); db.close();",
};

/**
 * How the addon got its binary: a source build (the install script's compiler output, npm
 * `--foreground-scripts`), a prebuilt binary the package ships itself (`prebuilds/`, no script
 * output), or its install script's prebuilt download.
 * @param {string} output what the install printed
 * @param {boolean} shipsPrebuilds the installed package has a `prebuilds` folder
 * @returns {'compiled' | 'shipped' | 'downloaded'}
 */
export function readHowInstalled(output, shipsPrebuilds) {
  if (/node-gyp|gyp info|Building locally|make: Entering/.test(output)) return 'compiled';
  return shipsPrebuilds ? 'shipped' : 'downloaded';
}

/** @type {Readonly<Record<'compiled' | 'shipped' | 'downloaded', string>>} */
const HOW = {
  compiled: 'no prebuilt binary reachable, compiled from source',
  shipped: 'prebuilt binary shipped in the package, nothing compiled',
  downloaded: 'prebuilt binary downloaded by its install script',
};

/**
 * The native addons an outside user of our packages installs: the runtime dependencies of the
 * publishable packages whose installed copy in the workspace's pnpm virtual store has a
 * `binding.gyp`, each at the version the workspace holds (the one our ranges resolve to).
 * @param {string} workspaceRoot
 * @param {readonly string[]} dependencyNames runtime dependencies of the publishable packages
 * @returns {{ name: string, version: string }[]}
 */
export function workspaceNativeAddons(workspaceRoot, dependencyNames) {
  const virtualStore = join(workspaceRoot, 'node_modules', '.pnpm');
  if (!existsSync(virtualStore)) return [];
  const entries = readdirSync(virtualStore);
  /** @type {{ name: string, version: string }[]} */ const addons = [];
  for (const name of [...new Set(dependencyNames)].sort()) {
    const prefix = `${name.replace('/', '+')}@`;
    for (const entry of entries.filter((candidate) => candidate.startsWith(prefix))) {
      const directory = join(virtualStore, entry, 'node_modules', name);
      if (!existsSync(join(directory, 'binding.gyp')) || !existsSync(join(directory, 'package.json'))) continue;
      addons.push({ name, version: JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')).version });
      break;
    }
  }
  return addons;
}

/**
 * The native-addon leg of the consumer test (native addons as a user installs them): each native addon our packages depend on is
 * installed the way an outside user on this Node meets it — `npm install` in a fresh project with no
 * mirror of ours, so its install script tries its own prebuilt download and, where that cannot be
 * reached, builds from source — and then loaded and used. Each result is reported plainly (how the
 * binary was obtained, how long it took, whether it works). The project's `node_modules` is returned
 * so the rest of the consumer test on this Node can be served these binaries instead of compiling
 * them again per project.
 * @param {{ addons: readonly { name: string, version: string }[], directory: string, env: NodeJS.ProcessEnv }} input
 *   (`version`: a version or a range, as `npm install` takes it)
 * @returns {Promise<{ checks: NativeAddonCheck[], nodeModules: string }>}
 */
export async function installNativeAddonsAsUser({ addons, directory, env }) {
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify({ name: 'native-addon-user', private: true, version: '0.0.0' })}\n`);
  const node = await runCommand('node', ['--version'], { cwd: directory, env });
  const nodeVersion = node.stdout.trim() || 'unknown';
  /** @type {NativeAddonCheck[]} */ const checks = [];
  for (const { name, version } of addons) {
    const packageName = `${name}@${version}`;
    const installed = await runCommand(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-package-lock', '--foreground-scripts', packageName],
      { cwd: directory, env, timeoutMs: 900_000 },
    );
    const seconds = Math.round(installed.durationMs / 1000);
    const output = installed.stdout + installed.stderr;
    const obtained = `${HOW[readHowInstalled(output, existsSync(join(directory, 'node_modules', name, 'prebuilds')))]} (${seconds} s)`;
    const label = `as a user installs it, Node ${nodeVersion} (npm)`;
    if (installed.exitCode !== 0) {
      checks.push({ packageName, name: `${label}: install failed`, ok: false, detail: describeFailure(installed) });
      continue;
    }
    // A range installs its newest match: the version it became is the one reported.
    const manifest = join(directory, 'node_modules', name, 'package.json');
    const installedAs = existsSync(manifest) ? `${name}@${JSON.parse(readFileSync(manifest, 'utf8')).version}` : packageName;
    const smoke = SMOKE_TESTS[name] ?? `require(${JSON.stringify(name)});`;
    const used = await runCommand('node', ['-e', smoke], { cwd: directory, env, timeoutMs: 60_000 });
    checks.push(
      used.exitCode === 0
        ? { packageName: installedAs, name: `${label}: ${obtained}; loads and works`, ok: true }
        : { packageName: installedAs, name: `${label}: ${obtained}; does not work`, ok: false, detail: describeFailure(used) },
    );
  }
  return { checks, nodeModules: join(directory, 'node_modules') };
}
