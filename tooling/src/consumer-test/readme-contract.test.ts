import { describe, expect, it } from 'vitest';
import { checkReadmePromises, readReadmeContract, specName } from './readme-contract.mjs';

const README = [
  '# @openwork/sandbox', // 1
  '',
  '```sh', // 3
  'npm install @openwork/sandbox zod', // 4
  'npm install -D @types/node   # TypeScript users', // 5
  '```',
  '',
  'ESM-only, Node `^22.22.2 || ^24.15.0`.', // 8
  '',
  '```js', // 10
  "import { analyzeCommand } from '@openwork/sandbox';",
  '```',
  '',
  '```text', // 14
  'not an example',
  '```',
  '',
  '```ts', // 18
  'const a: number = 1;',
  '```',
  '',
  '```sh', // 22
  'npm install something-else',
  '```',
].join('\n');

const MANIFEST = {
  name: '@openwork/sandbox',
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
  engines: { node: '^22.22.2 || ^24.15.0' },
  peerDependencies: { zod: '^4.0.0', '@types/node': '>=22.0.0' },
  peerDependenciesMeta: { '@types/node': { optional: true } },
};

describe('what the consumer test reads from a README', () => {
  it('takes the npm install lines of the first sh block and every js/ts block as an example', () => {
    const contract = readReadmeContract(README);
    expect(contract.installCommands).toEqual([
      { line: 4, dev: false, specs: ['@openwork/sandbox', 'zod'] },
      { line: 5, dev: true, specs: ['@types/node'] },
    ]);
    expect(contract.examples).toEqual([
      { line: 10, language: 'js', code: "import { analyzeCommand } from '@openwork/sandbox';\n" },
      { line: 18, language: 'ts', code: 'const a: number = 1;\n' },
    ]);
  });

  it('reads package names from install specs', () => {
    expect(['zod', 'zod@^4', '@types/node', '@types/node@22', '@openwork/sandbox@0.1.0'].map(specName)).toEqual([
      'zod',
      'zod',
      '@types/node',
      '@types/node',
      '@openwork/sandbox',
    ]);
  });

  it('accepts a README that states the install line, the peers, ESM-only and the Node range', () => {
    expect(checkReadmePromises(README, readReadmeContract(README), MANIFEST)).toEqual([]);
  });

  it('says what is missing from a README that promises nothing', () => {
    const bare = '# @openwork/sandbox\n\nSome text.\n';
    expect(checkReadmePromises(bare, readReadmeContract(bare), MANIFEST)).toEqual([
      'no `npm install @openwork/sandbox …` line in a sh block: say how to install the package (with its peers)',
      'the peer dependency zod (^4.0.0) is missing from the install line; without it a pnpm project cannot import it',
      'the optional peer @types/node (>=22.0.0) is in no install line; say who needs it (e.g. `npm install -D @types/node` for TypeScript users)',
      'the README does not say that the package is ESM-only',
      'the README does not state the Node range of engines.node (^22.22.2 || ^24.15.0)',
      'the README has no js/ts example',
    ]);
  });

  it('asks no js/ts example of an app that only installs commands', () => {
    const app = '# openwork\n\n```sh\nnpm install openwork\n```\n\nESM-only, Node `^22.22.2 || ^24.15.0`.\n';
    expect(checkReadmePromises(app, readReadmeContract(app), { name: 'openwork', bin: { openwork: './dist/cli.js' }, engines: MANIFEST.engines })).toEqual([]);
  });

  it('wants a required peer in a runtime install line, not only among dev installs', () => {
    const devOnly = README.replace('npm install @openwork/sandbox zod', 'npm install @openwork/sandbox').replace('-D @types/node', '-D @types/node zod');
    expect(checkReadmePromises(devOnly, readReadmeContract(devOnly), MANIFEST)).toEqual([
      'the peer dependency zod (^4.0.0) is missing from the install line; without it a pnpm project cannot import it',
    ]);
  });
});
