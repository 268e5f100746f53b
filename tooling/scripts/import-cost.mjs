#!/usr/bin/env node
// @ts-check
// The import-cost benchmark: for every publishable workspace package, the cold
// `import()` of its main entry point against bare `node -e 0`, as medians of paired rounds in one
// run, so the CLI's start-up stays fast as packages grow. Needs built packages (`pnpm bench:import`
// builds). Each import resolves through the package's own exports from its folder, i.e. the built
// dist a user installs. `--package NAME` (repeatable), `--rounds N` (default 21).
// The consumer test prints the same figure for the installed tarballs.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatImportCost, measureImportCost } from '../src/consumer-test/measure-import-cost.mjs';
import { hasLibraryEntryPoint } from '../src/consumer-test/entry-points.mjs';
import { readWorkspacePackages } from '../src/consumer-test/workspace-packages.mjs';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({ options: { package: { type: 'string', multiple: true }, rounds: { type: 'string' } } });
const rounds = values.rounds === undefined ? 21 : Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds takes a positive whole number, not ${values.rounds}`);

const packages = (await readWorkspacePackages(workspaceRoot)).filter(
  (entry) => !entry.private && hasLibraryEntryPoint(entry.manifest) && (values.package === undefined || values.package.includes(entry.name)),
);
console.log(`cold import() of each package against bare \`node -e 0\`, medians of ${rounds} paired rounds (${process.version}):`);
for (const entry of packages) {
  const cost = measureImportCost({ specifier: entry.name, cwd: entry.directory, rounds });
  console.log(`  ${entry.name.padEnd(28)} ${formatImportCost(cost)}`);
}
