// @ts-check
import { describeFailure, runCommand } from './run-command.mjs';

/** @type {Map<string, Promise<string[]>>} */
const answers = new Map();

/**
 * The lowest published version of `name` inside `range`, as the registry answers `npm view`: the
 * version a stated peer range promises to work with, so the consumer test installs it once. The
 * registry is asked once per name and range in a process.
 * @param {string} name
 * @param {string} range
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @returns {Promise<string>}
 */
export async function lowestSatisfyingVersion(name, range, options) {
  const versions = await satisfyingVersions(name, range, options);
  return /** @type {string} */ (versions[0]);
}

/**
 * The newest published version of `name` inside `range`: the version a user's `npm install` or
 * `pnpm add` of our packages resolves a dependency range to (with an empty cache and no lock file).
 * @param {string} name
 * @param {string} range
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @returns {Promise<string>}
 */
export async function newestSatisfyingVersion(name, range, options) {
  const versions = await satisfyingVersions(name, range, options);
  return /** @type {string} */ (versions[versions.length - 1]);
}

/**
 * Every release version of `name` inside `range`, oldest first (never empty); the registry is asked
 * once per name and range in a process.
 * @param {string} name
 * @param {string} range
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @returns {Promise<string[]>}
 */
function satisfyingVersions(name, range, options) {
  const key = `${name}@${range}`;
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = askRegistry(name, range, options);
    answers.set(key, answer);
    answer.catch(() => answers.delete(key));
  }
  return answer;
}

/**
 * @param {string} name
 * @param {string} range
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @returns {Promise<string[]>}
 */
async function askRegistry(name, range, { cwd, env }) {
  const view = await runCommand('npm', ['view', `${name}@${range}`, 'version', '--json'], { cwd, env, timeoutMs: 120_000 });
  if (view.exitCode !== 0) throw new Error(`could not ask the registry for ${name}@${range}: ${describeFailure(view)}`);
  /** @type {string | string[]} */
  const answer = JSON.parse(view.stdout);
  const versions = (Array.isArray(answer) ? answer : [answer]).filter((version) => !version.includes('-'));
  if (versions.length === 0) throw new Error(`no published version of ${name} satisfies ${range}`);
  return versions.sort(compareVersions);
}

/**
 * Orders `major.minor.patch` release versions numerically.
 * @param {string} left
 * @param {string} right
 */
export function compareVersions(left, right) {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
