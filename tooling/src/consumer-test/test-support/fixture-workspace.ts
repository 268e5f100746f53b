import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const FIXTURE_NODE_RANGE = '^22.22.2 || ^24.15.0';

/** The README of a fixture package; `examples` are whole fenced blocks, `install` what it installs. */
export function fixtureReadme(name: string, examples: readonly string[], install: readonly string[] = [name]): string {
  return [
    `# ${name}`,
    '',
    '## Install',
    '',
    '```sh',
    `npm install ${install.join(' ')}`,
    '```',
    '',
    `ESM-only, for Node \`${FIXTURE_NODE_RANGE}\`.`,
    '',
    ...examples.flatMap((example) => [example, '']),
  ].join('\n');
}

export const GREETING_EXAMPLES: readonly [string, string] = [
  [
    '```js',
    "import { greet } from '@fixture/greeting';",
    "if (greet('Ada') !== 'Hello, Ada!') throw new Error(`unexpected: ${greet('Ada')}`);",
    "console.log(greet('Ada'));",
    '```',
  ].join('\n'),
  [
    '```ts',
    "import { greet, type Greeting } from '@fixture/greeting';",
    "const text: Greeting = greet('Ada');",
    'console.log(text);',
    '```',
  ].join('\n'),
];

export const FAREWELL_EXAMPLE = [
  '```js',
  "import { farewell } from '@fixture/farewell';",
  "import { greet } from '@fixture/greeting';",
  "if (farewell('Ada') !== `${greet('Ada')} Goodbye.`) throw new Error(farewell('Ada'));",
  '```',
].join('\n');

const LICENSE = 'MIT License\n\nCopyright (c) 2026 fixture\n';

/**
 * A small pnpm workspace shaped like ours, built in a temp directory: `@fixture/greeting`,
 * `@fixture/farewell` (which depends on greeting through `workspace:^`, as builtins will on
 * sandbox) and installs a `farewell` command, and a private `@fixture/tooling`. Built JavaScript and declarations are written by hand,
 * so no build and no registry is needed. `greetingReadme` replaces greeting's README. The workspace
 * is installed (offline: nothing to download) so that pnpm can pack the `workspace:^` range.
 */
export async function createFixtureWorkspace(options: {
  env: NodeJS.ProcessEnv;
  storeDirectory: string;
  greetingReadme?: string;
}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ow-consumer-fixture-'));
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'fixture-root', private: true }));
  await writeFile(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
  await writePackage(root, 'tooling', { name: '@fixture/tooling', version: '0.0.0', private: true }, {});
  await writePackage(
    root,
    'greeting',
    manifest('@fixture/greeting', {}),
    {
      'dist/index.js': "/** @param {string} name */\nexport function greet(name) {\n  return `Hello, ${name}!`;\n}\n",
      'dist/index.d.ts': 'export type Greeting = `Hello, ${string}!`;\nexport declare function greet(name: string): Greeting;\n',
      'README.md': options.greetingReadme ?? fixtureReadme('@fixture/greeting', GREETING_EXAMPLES),
      LICENSE,
    },
  );
  await writePackage(
    root,
    'farewell',
    { ...manifest('@fixture/farewell', { '@fixture/greeting': 'workspace:^' }), bin: { farewell: './dist/cli.js' } },
    {
      'dist/cli.js':
        "#!/usr/bin/env node\nimport { farewell } from './index.js';\nconsole.log(process.argv[2] === '--help' ? 'usage: farewell NAME' : farewell(process.argv[2] ?? 'you'));\n",
      'dist/index.js': "import { greet } from '@fixture/greeting';\n/** @param {string} name */\nexport function farewell(name) {\n  return `${greet(name)} Goodbye.`;\n}\n",
      'dist/index.d.ts': "import type { Greeting } from '@fixture/greeting';\nexport declare function farewell(name: string): `${Greeting} Goodbye.`;\n",
      // Installs greeting directly too (its example uses both), as builtins' README does with tools-contract.
      'README.md': fixtureReadme('@fixture/farewell', [FAREWELL_EXAMPLE], ['@fixture/farewell', '@fixture/greeting']),
      LICENSE,
    },
  );
  await promisify(execFile)('pnpm', ['install', '--offline', '--store-dir', options.storeDirectory], { cwd: root, env: options.env });
  return root;
}

function manifest(name: string, dependencies: Record<string, string>): Record<string, unknown> {
  return {
    name,
    version: '0.0.0',
    license: 'MIT',
    type: 'module',
    sideEffects: false,
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    files: ['dist', 'LICENSE', 'README.md'],
    engines: { node: FIXTURE_NODE_RANGE },
    dependencies,
  };
}

async function writePackage(root: string, directory: string, packageManifest: Record<string, unknown>, files: Record<string, string>) {
  const packageDirectory = join(root, 'packages', directory);
  await mkdir(join(packageDirectory, 'dist'), { recursive: true });
  await writeFile(join(packageDirectory, 'package.json'), `${JSON.stringify(packageManifest, null, 2)}\n`);
  for (const [path, content] of Object.entries(files)) await writeFile(join(packageDirectory, path), content);
}
