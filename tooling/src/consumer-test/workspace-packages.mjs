// @ts-check
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeFailure, runCommand } from './run-command.mjs';

/**
 * @typedef {object} WorkspacePackage
 * @property {string} name
 * @property {string} version
 * @property {string} directory absolute
 * @property {boolean} private
 * @property {Record<string, any>} manifest its package.json
 */

/**
 * Every package of the pnpm workspace at `workspaceRoot`, as pnpm itself sees it (pnpm-workspace.yaml),
 * so a package added later is found without touching the consumer test. The root is left out.
 * @param {string} workspaceRoot
 * @returns {Promise<WorkspacePackage[]>}
 */
export async function readWorkspacePackages(workspaceRoot) {
  const listing = await runCommand('pnpm', ['ls', '-r', '--depth', '-1', '--json'], { cwd: workspaceRoot, timeoutMs: 60_000 });
  if (listing.exitCode !== 0) throw new Error(`could not list the workspace packages: ${describeFailure(listing)}`);
  /** @type {{ name?: string, path: string }[]} */
  const entries = JSON.parse(listing.stdout);
  const root = resolve(workspaceRoot);
  return entries
    .filter((entry) => resolve(entry.path) !== root)
    .map((entry) => {
      const manifest = JSON.parse(readFileSync(join(entry.path, 'package.json'), 'utf8'));
      return {
        name: manifest.name ?? entry.name ?? entry.path,
        version: manifest.version ?? '0.0.0',
        directory: resolve(entry.path),
        private: manifest.private === true,
        manifest,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
