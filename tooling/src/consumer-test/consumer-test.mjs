// @ts-check
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { ConsumerProject, PACKAGE_MANAGERS, readBuildDecisions } from './consumer-project.mjs';
import { inspectTarball } from './inspect-tarball.mjs';
import { lowestSatisfyingVersion, newestSatisfyingVersion } from './lowest-satisfying-version.mjs';
import { binNames, entryPointSpecifiers, hasLibraryEntryPoint } from './entry-points.mjs';
import { measureImportCost } from './measure-import-cost.mjs';
import { canServeNativeAddon, prepareNativeAddonMirror } from './native-addon-mirror.mjs';
import { installNativeAddonsAsUser, workspaceNativeAddons } from './install-native-addons-as-user.mjs';
import { checkReadmePromises, readReadmeContract, specName } from './readme-contract.mjs';
import { describeFailure, runCommand } from './run-command.mjs';
import {
  RESOLUTION_MODES,
  consumerCompilerOptions,
  importEveryExport,
  listPublicExports,
  stripTypes,
  typeCheck,
} from './type-check-consumer.mjs';
import { readWorkspacePackages } from './workspace-packages.mjs';

/** @typedef {import('./workspace-packages.mjs').WorkspacePackage} WorkspacePackage */
/** @typedef {import('./consumer-project.mjs').PackageManager} PackageManager */
/** @typedef {import('./readme-contract.mjs').ReadmeContract} ReadmeContract */
/** @typedef {import('./measure-import-cost.mjs').ImportCost} ImportCost */

/**
 * @typedef {object} ConsumerCheck
 * @property {string} packageName
 * @property {string} name what was checked, e.g. `npm · README example (README.md:14)`
 * @property {boolean} ok
 * @property {string} [detail] why it failed
 */

/**
 * @typedef {object} ConsumerTestOptions
 * @property {string} workspaceRoot the pnpm workspace whose publishable packages are checked
 * @property {readonly PackageManager[]} [packageManagers] default: npm and pnpm
 * @property {readonly string[]} [only] package names to check (default: every publishable package)
 * @property {number} [importRounds] paired rounds of the import-cost benchmark; 0 skips it
 * @property {NodeJS.ProcessEnv} [env] environment of every command (package-manager caches come from it)
 * @property {string} [storeDirectory] pnpm store to use instead of the machine's
 * @property {number} [concurrency] packages checked side by side (default 2)
 * @property {boolean} [keepProjects] leave the temp projects on disk (their path is logged) to debug a failure
 * @property {boolean} [nativeAddonsAsUser] first install every native addon the way an outside user
 *   on this Node does (its own prebuilt download, else a source build; no mirror of ours), report
 *   each plainly as a check, then serve those binaries to the projects instead of the workspace's
 * @property {(line: string) => void} [log]
 */

/**
 * @typedef {object} ConsumerTestResult
 * @property {ConsumerCheck[]} checks
 * @property {{ packageName: string, cost: ImportCost }[]} importCosts
 * @property {number} passed
 * @property {number} failed
 */

/**
 * The consumer test (the packaging rules): every publishable workspace package, present and future, is packed
 * with pnpm and adopted the way an outside team would — installed from its tarball into a fresh
 * project outside the workspace with npm and with pnpm, following the install line of its own
 * README — and then:
 * - the tarball itself is inspected (no private workspace package named, LICENSE and README inside,
 *   source maps that resolve, no test code);
 * - the README states the install line, the peers, `ESM-only` and the Node range of `engines`;
 * - an import of every public export of every entry point type-checks under `nodenext` and
 *   `bundler` (strict, no skipLibCheck), together with the README's TypeScript examples;
 * - every `js`/`ts` example of the README runs, extracted from the README itself;
 * - every entry point loads through `require()` (Node's require(esm));
 * - every command the package installs (`bin`) answers `--help` (apps ship commands, not imports).
 * npm installs each peer at the lowest version of its stated range, pnpm at what the README says,
 * so both ends of a peer range are exercised. Nothing is hard-coded per package: a new package
 * passes by following the same packaging rules (root README, "Packaging").
 * @param {ConsumerTestOptions} options
 * @returns {Promise<ConsumerTestResult>}
 */
export async function runConsumerTest(options) {
  const { workspaceRoot, packageManagers = PACKAGE_MANAGERS, importRounds = 7, env = process.env, storeDirectory, concurrency = 2 } = options;
  const log = options.log ?? ((line) => console.log(line));
  /** @type {ConsumerCheck[]} */ const checks = [];
  /** @type {{ packageName: string, cost: ImportCost }[]} */ const importCosts = [];
  /** @param {readonly ConsumerCheck[]} recorded */
  const print = (recorded) => {
    for (const check of recorded) {
      checks.push(check);
      log(`${check.ok ? 'PASS' : 'FAIL'}  ${check.packageName} · ${check.name}`);
      if (!check.ok && check.detail) log(indent(check.detail));
    }
  };

  const workspacePackages = await readWorkspacePackages(workspaceRoot);
  const privateNames = new Set(workspacePackages.filter((entry) => entry.private).map((entry) => entry.name));
  const publishable = workspacePackages.filter((entry) => !entry.private);
  for (const name of options.only ?? []) {
    if (!publishable.some((entry) => entry.name === name)) throw new Error(`${name} is not a publishable package of this workspace`);
  }
  const targets = publishable.filter((entry) => options.only === undefined || options.only.includes(entry.name));

  const workDirectory = mkdtempSync(join(tmpdir(), 'openwork-consumer-'));
  const fromWorkspace = relative(workspaceRoot, workDirectory);
  if (!fromWorkspace.startsWith('..') && !isAbsolute(fromWorkspace)) {
    throw new Error(`the temp directory ${workDirectory} is inside the workspace; point TMPDIR elsewhere`);
  }
  try {
    // Every publishable package is packed, not only the targets: a target's workspace
    // dependencies are installed from their tarballs too.
    /** @type {Map<string, string>} */ const tarballs = new Map();
    for (const entry of publishable) {
      const packed = await packPackage(entry, join(workDirectory, 'tarballs', slug(entry.name)), env);
      if (typeof packed === 'string') tarballs.set(entry.name, packed);
      else print([{ packageName: entry.name, name: 'pnpm pack', ok: false, detail: packed.problem }]);
    }
    const workspaceYaml = join(workspaceRoot, 'pnpm-workspace.yaml');
    const builds = existsSync(workspaceYaml) ? readBuildDecisions(readFileSync(workspaceYaml, 'utf8')) : {};
    const allowBuilds = Object.keys(builds).filter((name) => builds[name] === true);
    // Native addons reach the projects prebuilt through their own download mirrors
    // (native-addon-mirror.mjs), at the version a consumer's resolver picks for our range (the newest
    // match, not the workspace's locked version), built once here when nothing here holds it.
    const dependencyNames = publishable.flatMap((entry) => Object.keys(entry.manifest["dependencies"] ?? {}));
    const ranges = new Map(publishable.flatMap((entry) => Object.entries(entry.manifest["dependencies"] ?? {})).reverse());
    /** @type {Map<string, string>} */ const wanted = new Map();
    for (const name of allowBuilds.filter((candidate) => ranges.has(candidate) && canServeNativeAddon(candidate))) {
      wanted.set(name, await newestSatisfyingVersion(name, /** @type {string} */ (ranges.get(name)), { cwd: workDirectory, env }));
    }
    if (wanted.size > 0) log(`native addons at the version a consumer resolves for our ranges: ${[...wanted].map(([name, version]) => `${name}@${version} (${ranges.get(name)})`).join(', ')}`);
    /** @type {string[]} */ const nodeModules = [];
    if (options.nativeAddonsAsUser === true) {
      // Each addon at the range our manifests give it, as the projects' own npm install will resolve it.
      const addons = workspaceNativeAddons(workspaceRoot, dependencyNames).map(({ name, version }) => ({ name, version: ranges.get(name) ?? version }));
      log(`native addons installed as a user would (the ranges our manifests give), without our mirror: ${addons.map(({ name, version }) => `${name}@${version}`).join(', ')}`);
      const asUser = await installNativeAddonsAsUser({ addons, directory: join(workDirectory, 'native-addons-as-user'), env });
      print(asUser.checks);
      nodeModules.push(asUser.nodeModules);
    }
    let mirror = await prepareNativeAddonMirror({ workspaceRoot, mirror: join(workDirectory, 'native-addons'), allowBuilds, nodeModules, wanted });
    if (mirror.missing.length > 0) {
      // The workspace holds another version (its lock file is older than the newest match): build
      // the wanted one once, as a user on this Node would, and serve it to every project.
      log(`native addons not built here at the version a consumer resolves, built once now: ${mirror.missing.join(', ')}`);
      const addons = mirror.missing.map((spec) => ({ name: spec.slice(0, spec.lastIndexOf('@')), version: spec.slice(spec.lastIndexOf('@') + 1) }));
      const built = await installNativeAddonsAsUser({ addons, directory: join(workDirectory, 'native-addons-built'), env });
      print(built.checks);
      nodeModules.push(built.nodeModules);
      mirror = await prepareNativeAddonMirror({ workspaceRoot, mirror: join(workDirectory, 'native-addons'), allowBuilds, nodeModules, wanted });
    }
    if (mirror.served.length > 0) log(`native addons served prebuilt to every project: ${mirror.served.join(', ')}`);
    if (mirror.missing.length > 0) log(`native addons every project compiles from source (no built copy): ${mirror.missing.join(', ')}`);
    /** @type {PackageCheckContext} */
    const context = { workDirectory, tarballs, privateNames, packageManagers, env: { ...env, ...mirror.env }, storeDirectory, builds };
    /** @type {{ packageName: string, projectDirectory: string }[]} */ const measurable = [];
    // Packages are checked side by side (installs and examples wait on other processes while
    // TypeScript keeps this one busy); each package's lines are printed together when it is done.
    await forEachConcurrently(targets.filter((target) => tarballs.has(target.name)), concurrency, async (target) => {
      const started = Date.now();
      const outcome = await checkPackage(target, context);
      print(outcome.checks);
      log(`      ${target.name}: ${outcome.checks.filter((check) => check.ok).length}/${outcome.checks.length} checks passed in ${Math.round((Date.now() - started) / 1000)} s`);
      if (outcome.installedIn !== undefined) measurable.push({ packageName: target.name, projectDirectory: outcome.installedIn });
    });
    // Import costs are measured one package at a time, after everything else, on a quiet machine.
    if (importRounds > 0) {
      for (const { packageName, projectDirectory } of measurable.sort((a, b) => a.packageName.localeCompare(b.packageName))) {
        try {
          importCosts.push({ packageName, cost: measureImportCost({ specifier: packageName, cwd: projectDirectory, rounds: importRounds }) });
        } catch (error) {
          print([{ packageName, name: 'import cost', ok: false, detail: error instanceof Error ? error.message : String(error) }]);
        }
      }
    }
  } finally {
    if (options.keepProjects === true) log(`consumer projects kept in ${workDirectory}`);
    else rmSync(workDirectory, { recursive: true, force: true });
  }
  const failed = checks.filter((check) => !check.ok).length;
  return { checks, importCosts, passed: checks.length - failed, failed };
}

/**
 * @typedef {object} PackageCheckContext
 * @property {string} workDirectory
 * @property {ReadonlyMap<string, string>} tarballs package name → tarball path, for every publishable package
 * @property {ReadonlySet<string>} privateNames
 * @property {readonly PackageManager[]} packageManagers
 * @property {NodeJS.ProcessEnv} env
 * @property {string | undefined} storeDirectory
 * @property {Readonly<Record<string, boolean>>} builds native addons pnpm may (true) or must not (false) build, from pnpm-workspace.yaml
 */

/**
 * Every check of one package: its tarball, its README, and per package manager the install, the
 * types, the README examples and `require()`.
 * @param {WorkspacePackage} target
 * @param {PackageCheckContext} context
 * @returns {Promise<{ checks: ConsumerCheck[], installedIn?: string }>} `installedIn`: a project
 *   where the package is installed, for the import-cost benchmark
 */
async function checkPackage(target, { workDirectory, tarballs, privateNames, packageManagers, env, storeDirectory, builds }) {
  /** @type {ConsumerCheck[]} */ const checks = [];
  const packageName = target.name;
  const tarball = /** @type {string} */ (tarballs.get(packageName));
  const unpacked = join(workDirectory, 'unpacked', slug(packageName));
  mkdirSync(unpacked, { recursive: true });
  const untar = await runCommand('tar', ['-xzf', tarball, '-C', unpacked], { cwd: workDirectory, env });
  if (untar.exitCode !== 0) return { checks: [{ packageName, name: 'tarball', ok: false, detail: describeFailure(untar) }] };
  const packageDirectory = join(unpacked, 'package');
  const tarballProblems = inspectTarball(packageDirectory, { privateNames });
  checks.push({ packageName, name: 'tarball (manifest, LICENSE, README, source maps, no tests)', ok: tarballProblems.length === 0, detail: tarballProblems.join('\n') });

  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
  const readme = existsSync(join(packageDirectory, 'README.md')) ? readFileSync(join(packageDirectory, 'README.md'), 'utf8') : '';
  const contract = readReadmeContract(readme);
  const readmeProblems = checkReadmePromises(readme, contract, manifest);
  checks.push({ packageName, name: 'README (install line, peers, ESM-only, Node range, examples)', ok: readmeProblems.length === 0, detail: readmeProblems.join('\n') });
  if (contract.installCommands.length === 0) return { checks };

  /** @type {string | undefined} */ let installedIn;
  for (const packageManager of packageManagers) {
    const projectDirectory = join(workDirectory, packageManager, slug(packageName));
    /** @param {ConsumerCheck} check */
    const add = (check) => checks.push({ ...check, name: `${packageManager} · ${check.name}` });
    const installed = await installAsReadmeSays({ manifest, contract, packageManager, projectDirectory, tarballs, env, storeDirectory, builds });
    add({ packageName, name: `install as the README says (${installed.commands.join('; ')})`, ok: installed.problem === undefined, detail: installed.problem });
    if (installed.problem !== undefined) continue;
    if (hasLibraryEntryPoint(manifest)) checkTypes({ projectDirectory, manifest, contract, packageName }).forEach(add);
    (await runExamples({ projectDirectory, contract, packageName, env })).forEach(add);
    if (hasLibraryEntryPoint(manifest)) {
      const required = await requireEntryPoints({ projectDirectory, manifest, env });
      add({ packageName, name: 'require() of every entry point from CommonJS', ok: required === undefined, detail: required });
      installedIn ??= projectDirectory;
    }
    for (const bin of binNames(manifest)) {
      const help = await runCommand(join(projectDirectory, 'node_modules', '.bin', bin), ['--help'], { cwd: projectDirectory, env: { ...env, HOME: join(projectDirectory, 'home') }, timeoutMs: 60_000 });
      add({ packageName, name: `the installed command \`${bin} --help\` runs`, ok: help.exitCode === 0, detail: help.exitCode === 0 ? undefined : describeFailure(help) });
    }
  }
  return installedIn === undefined ? { checks } : { checks, installedIn };
}

/**
 * Runs `work` for every item, at most `limit` at a time.
 * @template T
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<void>} work
 */
async function forEachConcurrently(items, limit, work) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(/** @type {T} */ (items[next++]));
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/**
 * Packs one package with pnpm (which rewrites `workspace:` ranges) into an empty folder.
 * @param {WorkspacePackage} entry
 * @param {string} destination
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<string | { problem: string }>} the tarball's path
 */
async function packPackage(entry, destination, env) {
  mkdirSync(destination, { recursive: true });
  const pack = await runCommand('pnpm', ['pack', '--pack-destination', destination], { cwd: entry.directory, env, timeoutMs: 120_000 });
  const tarball = readdirSync(destination).find((name) => name.endsWith('.tgz'));
  if (pack.exitCode !== 0 || tarball === undefined) return { problem: describeFailure(pack) };
  return join(destination, tarball);
}

/**
 * Runs the README's install commands in a fresh project: workspace packages come from their
 * tarballs, and under npm each peer of the package is installed at the lowest version of its range.
 * @param {{
 *   manifest: Record<string, any>, contract: ReadmeContract,
 *   packageManager: PackageManager, projectDirectory: string, tarballs: ReadonlyMap<string, string>,
 *   env: NodeJS.ProcessEnv, storeDirectory: string | undefined, builds: Readonly<Record<string, boolean>>,
 * }} input
 * @returns {Promise<{ commands: string[], problem?: string }>}
 */
async function installAsReadmeSays({ manifest, contract, packageManager, projectDirectory, tarballs, env, storeDirectory, builds }) {
  const project = new ConsumerProject({ directory: projectDirectory, packageManager, tarballOverrides: Object.fromEntries(tarballs), env, storeDirectory, builds });
  /** @type {string[]} */ const commands = [];
  for (const command of contract.installCommands) {
    /** @type {string[]} */ const specs = [];
    for (const spec of command.specs) {
      const name = specName(spec);
      const tarball = tarballs.get(name);
      const peerRange = manifest.peerDependencies?.[name];
      if (tarball !== undefined) specs.push(project.tarballSpec(tarball));
      else if (packageManager === 'npm' && typeof peerRange === 'string') {
        try {
          specs.push(`${name}@${await lowestSatisfyingVersion(name, peerRange, { cwd: projectDirectory, env })}`);
        } catch (error) {
          return { commands, problem: error instanceof Error ? error.message : String(error) };
        }
      } else specs.push(spec);
    }
    const shown = specs.map((spec) => (tarballs.has(specName(spec)) || spec.endsWith('.tgz') ? `${tarballName(spec)}` : spec));
    commands.push(`${packageManager} ${packageManager === 'npm' ? 'install' : 'add'}${command.dev ? ' -D' : ''} ${shown.join(' ')}`);
    const outcome = await project.install(specs, { dev: command.dev });
    if (outcome.exitCode !== 0) return { commands, problem: describeFailure(outcome) };
  }
  return { commands };
}

/**
 * @param {{ projectDirectory: string, manifest: Record<string, any>, contract: ReadmeContract, packageName: string }} input
 * @returns {ConsumerCheck[]}
 */
function checkTypes({ projectDirectory, manifest, contract, packageName }) {
  const specifiers = entryPointSpecifiers(manifest);
  const nodeTypes = Object.hasOwn(manifest.peerDependencies ?? {}, '@types/node');
  const examples = contract.examples
    .filter((example) => example.language === 'ts')
    .map((example) => {
      const file = join(projectDirectory, `readme-example-${example.line}.mts`);
      writeFileSync(file, example.code);
      return file;
    });
  return RESOLUTION_MODES.map((mode) => {
    const options = consumerCompilerOptions(mode, { nodeTypes });
    const listed = listPublicExports(projectDirectory, specifiers, options);
    const exportsFile = join(projectDirectory, `public-exports-${mode}.mts`);
    writeFileSync(exportsFile, importEveryExport(listed.entryPoints));
    const diagnostics = [...listed.problems, ...typeCheck(projectDirectory, [exportsFile, ...examples], options, manifest.name, listed.program)];
    const count = listed.entryPoints.reduce((sum, entry) => sum + entry.values.length + entry.types.length, 0);
    return {
      packageName,
      name: `types: ${count} public exports${examples.length ? ` and ${examples.length} TypeScript README example(s)` : ''} under ${mode} (strict, no skipLibCheck${nodeTypes ? ', @types/node' : ', DOM lib, no @types/node'})`,
      ok: diagnostics.length === 0 && count > 0,
      detail: diagnostics.length ? diagnostics.slice(0, 20).join('\n') : count === 0 ? 'no export found' : undefined,
    };
  });
}

/**
 * Runs every `js`/`ts` example of the README as its own ES module inside the consumer project
 * (TypeScript with its types stripped), with a scratch HOME.
 * @param {{ projectDirectory: string, contract: ReadmeContract, packageName: string, env: NodeJS.ProcessEnv }} input
 * @returns {Promise<ConsumerCheck[]>}
 */
async function runExamples({ projectDirectory, contract, packageName, env }) {
  const home = join(projectDirectory, 'home');
  mkdirSync(home, { recursive: true });
  /** @type {ConsumerCheck[]} */ const checks = [];
  for (const example of contract.examples) {
    const file = join(projectDirectory, `readme-example-${example.line}.mjs`);
    writeFileSync(file, example.language === 'ts' ? stripTypes(example.code) : example.code);
    const outcome = await runCommand(process.execPath, [file], { cwd: projectDirectory, env: { ...env, HOME: home }, timeoutMs: 120_000 });
    checks.push({
      packageName,
      name: `README example at README.md:${example.line} (${example.language === 'ts' ? 'TypeScript, types stripped' : 'plain JavaScript'}) runs`,
      ok: outcome.exitCode === 0,
      detail: outcome.exitCode === 0 ? undefined : describeFailure(outcome),
    });
  }
  return checks;
}

/**
 * `require()` of every entry point from a CommonJS file: ESM-only packages load that way on every
 * Node of the engines range (require(esm)).
 * @param {{ projectDirectory: string, manifest: Record<string, any>, env: NodeJS.ProcessEnv }} input
 * @returns {Promise<string | undefined>} the failure, if any
 */
async function requireEntryPoints({ projectDirectory, manifest, env }) {
  const file = join(projectDirectory, 'require-entry-points.cjs');
  const specifiers = entryPointSpecifiers(manifest);
  writeFileSync(file, specifiers.map((specifier) => `if (Object.keys(require(${JSON.stringify(specifier)})).length === 0) throw new Error(${JSON.stringify(`${specifier} exports nothing`)});\n`).join(''));
  const outcome = await runCommand(process.execPath, [file], { cwd: projectDirectory, env, timeoutMs: 60_000 });
  return outcome.exitCode === 0 && !outcome.stderr.includes('Warning') ? undefined : describeFailure(outcome);
}

/** @param {string} name */
function slug(name) {
  return name.replace(/^@/, '').replace(/\//g, '-');
}

/** @param {string} spec */
function tarballName(spec) {
  return spec.split('/').at(-1) ?? spec;
}

/** @param {string} text */
function indent(text) {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}
