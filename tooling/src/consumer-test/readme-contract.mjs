// @ts-check
import { hasLibraryEntryPoint } from './entry-points.mjs';

/**
 * @typedef {object} InstallCommand
 * @property {number} line 1-based line of the README
 * @property {boolean} dev `-D` / `--save-dev`
 * @property {string[]} specs what `npm install` is given, as written
 */

/**
 * @typedef {object} ReadmeExample
 * @property {number} line 1-based line of the opening fence
 * @property {'js' | 'ts'} language `js` runs as written (an ES module); `ts` is type-checked, then run
 * @property {string} code
 */

/**
 * @typedef {object} ReadmeContract
 * @property {InstallCommand[]} installCommands the `npm install` lines of the first `sh` block that has one
 * @property {ReadmeExample[]} examples every `js`/`ts` code block, in order
 */

const FENCE = /^(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const JS_LANGUAGES = new Set(['js', 'javascript', 'mjs']);
const TS_LANGUAGES = new Set(['ts', 'typescript', 'mts']);
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);
const INSTALL = /^\s*(?:\$\s*)?npm\s+(?:install|i|add)\s+(.*)$/;

/**
 * What a package README promises a user, as the consumer test reads it: how to install the package,
 * and the examples. Every `js`/`ts` block is an example that must run as written: a snippet that
 * is not meant to run belongs in a `text` block. `js` blocks are plain JavaScript ES modules (a user
 * can paste them into `example.mjs`); `ts` blocks are TypeScript.
 * @param {string} text the README
 * @returns {ReadmeContract}
 */
export function readReadmeContract(text) {
  const lines = text.split('\n');
  /** @type {InstallCommand[]} */ const installCommands = [];
  /** @type {ReadmeExample[]} */ const examples = [];
  let index = 0;
  while (index < lines.length) {
    const open = FENCE.exec(lines[index] ?? '');
    if (!open) {
      index++;
      continue;
    }
    const fence = /** @type {string} */ (open[1]);
    const language = (open[2] ?? '').toLowerCase();
    const start = index;
    const body = [];
    index++;
    while (index < lines.length && !(lines[index] ?? '').trimEnd().startsWith(fence)) body.push(lines[index++] ?? '');
    index++;
    if (JS_LANGUAGES.has(language) || TS_LANGUAGES.has(language)) {
      examples.push({ line: start + 1, language: JS_LANGUAGES.has(language) ? 'js' : 'ts', code: `${body.join('\n')}\n` });
    } else if (SHELL_LANGUAGES.has(language) && installCommands.length === 0) {
      body.forEach((bodyLine, offset) => {
        const install = INSTALL.exec(bodyLine.replace(/\s+#.*$/, ''));
        if (!install) return;
        const words = (install[1] ?? '').trim().split(/\s+/).filter(Boolean);
        const dev = words.some((word) => word === '-D' || word === '--save-dev');
        const specs = words.filter((word) => !word.startsWith('-'));
        installCommands.push({ line: start + 2 + offset, dev, specs });
      });
    }
  }
  return { installCommands, examples };
}

/**
 * The package name of an install spec: `zod@^4` → `zod`, `@types/node@22` → `@types/node`.
 * @param {string} spec
 */
export function specName(spec) {
  const at = spec.indexOf('@', 1);
  return at === -1 ? spec : spec.slice(0, at);
}

/**
 * What the README must tell a user before they can adopt the package.
 * @param {string} readme
 * @param {ReadmeContract} contract
 * @param {Record<string, any>} manifest the packed package.json
 * @returns {string[]}
 */
export function checkReadmePromises(readme, contract, manifest) {
  /** @type {string[]} */ const problems = [];
  const installed = new Set(contract.installCommands.flatMap((command) => command.specs.map(specName)));
  const installedForRuntime = new Set(contract.installCommands.filter((command) => !command.dev).flatMap((command) => command.specs.map(specName)));
  if (!installedForRuntime.has(manifest.name)) {
    problems.push(`no \`npm install ${manifest.name} …\` line in a sh block: say how to install the package (with its peers)`);
  }
  const optional = manifest.peerDependenciesMeta ?? {};
  for (const [peer, range] of Object.entries(manifest.peerDependencies ?? {})) {
    if (optional[peer]?.optional === true) {
      if (!installed.has(peer)) problems.push(`the optional peer ${peer} (${range}) is in no install line; say who needs it (e.g. \`npm install -D ${peer}\` for TypeScript users)`);
    } else if (!installedForRuntime.has(peer)) {
      problems.push(`the peer dependency ${peer} (${range}) is missing from the install line; without it a pnpm project cannot import it`);
    }
  }
  if (!readme.includes('ESM-only')) problems.push('the README does not say that the package is ESM-only');
  const nodeRange = manifest.engines?.node;
  if (typeof nodeRange !== 'string') problems.push('package.json has no engines.node');
  else if (!readme.includes(nodeRange)) problems.push(`the README does not state the Node range of engines.node (${nodeRange})`);
  if (contract.examples.length === 0 && hasLibraryEntryPoint(manifest)) problems.push('the README has no js/ts example');
  return problems;
}
