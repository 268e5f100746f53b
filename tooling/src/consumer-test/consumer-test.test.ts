import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { runConsumerTest } from './consumer-test.mjs';
import { createFixtureWorkspace, fixtureReadme, GREETING_EXAMPLES } from './test-support/fixture-workspace.ts';

const consumerTestScript = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'consumer-test.mjs');
const cleanup: string[] = [];
// Each test packs, installs with npm and pnpm, type-checks and runs examples: minutes on a busy machine.
const MINUTES = 60_000;

afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

/**
 * A scratch HOME, npm cache and pnpm store, so the test never touches the real ones. The fixture
 * packages have no registry dependencies, so nothing is downloaded.
 */
async function hermeticEnvironment() {
  const home = await mkdtemp(join(tmpdir(), 'ow-consumer-home-'));
  cleanup.push(home);
  const env = {
    ...process.env,
    HOME: home,
    npm_config_cache: join(home, 'npm-cache'),
    npm_config_update_notifier: 'false',
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
  };
  return { env, storeDirectory: join(home, 'pnpm-store') };
}

describe('the consumer test', () => {
  it('finds every publishable workspace package and passes a workspace whose packages are adoptable', async () => {
    const { env, storeDirectory } = await hermeticEnvironment();
    const workspaceRoot = await createFixtureWorkspace({ env, storeDirectory });
    cleanup.push(workspaceRoot);
    const lines: string[] = [];
    const result = await runConsumerTest({ workspaceRoot, env, storeDirectory, importRounds: 0, log: (line) => lines.push(line) });

    expect(result.checks.filter((check) => !check.ok)).toEqual([]);
    // Discovered from pnpm-workspace.yaml: both public packages, never the private one.
    expect([...new Set(result.checks.map((check) => check.packageName))].sort()).toEqual(['@fixture/farewell', '@fixture/greeting']);
    const greeting = result.checks.filter((check) => check.packageName === '@fixture/greeting').map((check) => check.name.replace(/ \(.*$/, ''));
    expect(greeting).toEqual([
      'tarball',
      'README',
      'npm · install as the README says',
      'npm · types: 2 public exports and 1 TypeScript README example(s) under nodenext',
      'npm · types: 2 public exports and 1 TypeScript README example(s) under bundler',
      'npm · README example at README.md:11',
      'npm · README example at README.md:17',
      'npm · require() of every entry point from CommonJS',
      'pnpm · install as the README says',
      'pnpm · types: 2 public exports and 1 TypeScript README example(s) under nodenext',
      'pnpm · types: 2 public exports and 1 TypeScript README example(s) under bundler',
      'pnpm · README example at README.md:11',
      'pnpm · README example at README.md:17',
      'pnpm · require() of every entry point from CommonJS',
    ]);
    // farewell depends on greeting through workspace:^, unpublished: both managers took it from its tarball.
    expect(result.checks.filter((check) => check.packageName === '@fixture/farewell' && check.name.includes('README example'))).toHaveLength(2);
    expect(result.checks.filter((check) => check.name.endsWith('`farewell --help` runs')).map((check) => check.name)).toEqual([
      'npm · the installed command `farewell --help` runs',
      'pnpm · the installed command `farewell --help` runs',
    ]);
    expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
  }, 5 * MINUTES);

  it('fails, naming the README line, when a README example breaks (the test of the test)', async () => {
    const broken = [
      GREETING_EXAMPLES[0],
      // Calls greet with the wrong casing: a README drifted from the code.
      ['```js', "import { Greet } from '@fixture/greeting';", "console.log(Greet('Ada'));", '```'].join('\n'),
    ];
    const { env, storeDirectory } = await hermeticEnvironment();
    const workspaceRoot = await createFixtureWorkspace({ env, storeDirectory, greetingReadme: fixtureReadme('@fixture/greeting', broken) });
    cleanup.push(workspaceRoot);
    const run = await promisify(execFile)(
      process.execPath,
      [consumerTestScript, '--workspace', workspaceRoot, '--package', '@fixture/greeting', '--import-rounds', '0', '--store-dir', storeDirectory],
      { env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    ).then(
      (output) => ({ exitCode: 0, stdout: output.stdout }),
      (error: { code?: number; stdout?: string }) => ({ exitCode: error.code, stdout: error.stdout ?? '' }),
    );

    expect(run.exitCode).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([
      'FAIL  @fixture/greeting · npm · README example at README.md:17 (plain JavaScript) runs',
      'FAIL  @fixture/greeting · pnpm · README example at README.md:17 (plain JavaScript) runs',
    ]);
    expect(run.stdout).toContain("does not provide an export named 'Greet'");
    expect(lines.at(-2)).toMatch(/^consumer test on Node v\d+\.\d+\.\d+: FAILED \(\d+ checks passed, 2 failed, \d+ s\)$/);
    // The first example still ran and passed.
    expect(lines).toContain('PASS  @fixture/greeting · npm · README example at README.md:11 (plain JavaScript) runs');
  }, 5 * MINUTES);

  it('fails the type check of a TypeScript README example that no longer compiles', async () => {
    const drifted = [['```ts', "import { greet } from '@fixture/greeting';", 'const count: number = greet(42);', 'console.log(count);', '```'].join('\n')];
    const { env, storeDirectory } = await hermeticEnvironment();
    const workspaceRoot = await createFixtureWorkspace({ env, storeDirectory, greetingReadme: fixtureReadme('@fixture/greeting', drifted) });
    cleanup.push(workspaceRoot);
    const result = await runConsumerTest({
      workspaceRoot,
      env,
      storeDirectory,
      importRounds: 0,
      only: ['@fixture/greeting'],
      packageManagers: ['pnpm'],
      log: () => {},
    });
    const failed = result.checks.filter((check) => !check.ok);
    expect(failed.map((check) => check.name.replace(/ \(.*$/, ''))).toEqual([
      'pnpm · types: 2 public exports and 1 TypeScript README example(s) under nodenext',
      'pnpm · types: 2 public exports and 1 TypeScript README example(s) under bundler',
    ]);
    expect(failed[0]?.detail).toContain("readme-example-11.mts(2,29): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.");
  }, 5 * MINUTES);
});
