// @ts-check
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeFailure, runCommand } from './run-command.mjs';

/**
 * @typedef {object} NativeAddonCheck
 * @property {string} packageName `name@version` of the addon
 * @property {string} name what an outside user met, e.g. `as a user installs it, Node v22.22.2 (npm): no prebuilt binary reachable, compiled from source in 143 s; loads and works`
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
 * How the addon's own install script got its binary, read from its output (npm
 * `--foreground-scripts`): a prebuilt download, or a source build after the download failed.
 * @param {string} output
 * @returns {'prebuilt' | 'compiled'}
 */
export function readHowInstalled(output) {
  return /node-gyp|gyp info|Building locally|make: Entering/.test(output) ? 'compiled' : 'prebuilt';
}

/**
 * The versions of the allowed native addons that the workspace's packages install (the ones in its
 * pnpm virtual store), so the leg installs exactly what a user of our packages gets.
 * @param {string} workspaceRoot
 * @param {readonly string[]} allowBuilds
 * @returns {{ name: string, version: string }[]}
 */
export function workspaceNativeAddons(workspaceRoot, allowBuilds) {
  const virtualStore = join(workspaceRoot, 'node_modules', '.pnpm');
  if (!existsSync(virtualStore)) return [];
  const entries = readdirSync(virtualStore);
  /** @type {{ name: string, version: string }[]} */ const addons = [];
  for (const name of [...allowBuilds].sort()) {
    const prefix = `${name.replace('/', '+')}@`;
    const entry = entries.filter((candidate) => candidate.startsWith(prefix)).sort().at(-1);
    if (entry === undefined) continue;
    const manifest = join(virtualStore, entry, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) addons.push({ name, version: JSON.parse(readFileSync(manifest, 'utf8')).version });
  }
  return addons;
}

/**
 * The native-addon leg of the consumer test (issue 29): each native addon our packages depend on is
 * installed the way an outside user on this Node meets it — `npm install` in a fresh project with no
 * mirror of ours, so its install script tries its own prebuilt download and, where that cannot be
 * reached, builds from source — and then loaded and used. Each result is reported plainly (how the
 * binary was obtained, how long it took, whether it works). The project's `node_modules` is returned
 * so the rest of the consumer test on this Node can be served these binaries instead of compiling
 * them again per project.
 * @param {{ addons: readonly { name: string, version: string }[], directory: string, env: NodeJS.ProcessEnv }} input
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
    const how = readHowInstalled(output);
    const obtained = how === 'prebuilt' ? `prebuilt binary downloaded in ${seconds} s` : `no prebuilt binary reachable, compiled from source in ${seconds} s`;
    const label = `as a user installs it, Node ${nodeVersion} (npm)`;
    if (installed.exitCode !== 0) {
      checks.push({ packageName, name: `${label}: install failed`, ok: false, detail: describeFailure(installed) });
      continue;
    }
    const smoke = SMOKE_TESTS[name] ?? `require(${JSON.stringify(name)});`;
    const used = await runCommand('node', ['-e', smoke], { cwd: directory, env, timeoutMs: 60_000 });
    checks.push(
      used.exitCode === 0
        ? { packageName, name: `${label}: ${obtained}; loads and works`, ok: true }
        : { packageName, name: `${label}: ${obtained}; does not work`, ok: false, detail: describeFailure(used) },
    );
  }
  return { checks, nodeModules: join(directory, 'node_modules') };
}
