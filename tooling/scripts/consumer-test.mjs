#!/usr/bin/env node
// @ts-check
// The consumer test, for CI and by hand. Needs built packages (`pnpm consumer-test` builds):
//   node tooling/scripts/consumer-test.mjs [--package NAME]… [--package-manager npm|pnpm]…
//     [--import-rounds N] [--keep-projects] [--workspace DIR] [--store-dir DIR] [--native-addons-as-user]
// --native-addons-as-user first installs each native addon as an outside user on this Node would
// (its own prebuilt download, else a source build) and reports it, then serves those binaries.
// Prints one PASS/FAIL line per check and ends with `consumer test: PASSED|FAILED (N checks passed,
// N failed)`; exits 1 on any failure. OPENWORK_CONSUMER_REPORT=<file> also writes the result as JSON.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runConsumerTest } from '../src/consumer-test/consumer-test.mjs';
import { formatImportCost } from '../src/consumer-test/measure-import-cost.mjs';

const { values } = parseArgs({
  options: {
    workspace: { type: 'string' },
    'store-dir': { type: 'string' },
    package: { type: 'string', multiple: true },
    'package-manager': { type: 'string', multiple: true },
    'import-rounds': { type: 'string' },
    'keep-projects': { type: 'boolean' },
    'native-addons-as-user': { type: 'boolean' },
  },
});
const workspaceRoot = values.workspace ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageManagers = /** @type {('npm' | 'pnpm')[] | undefined} */ (values['package-manager']);
for (const manager of packageManagers ?? []) {
  if (manager !== 'npm' && manager !== 'pnpm') throw new Error(`--package-manager takes npm or pnpm, not ${manager}`);
}

const started = Date.now();
const result = await runConsumerTest({
  workspaceRoot,
  ...(values.package ? { only: values.package } : {}),
  ...(packageManagers ? { packageManagers } : {}),
  ...(values['import-rounds'] !== undefined ? { importRounds: Number(values['import-rounds']) } : {}),
  keepProjects: values['keep-projects'] === true,
  nativeAddonsAsUser: values['native-addons-as-user'] === true,
  ...(values['store-dir'] ? { storeDirectory: values['store-dir'] } : {}),
});
if (result.importCosts.length > 0) {
  console.log('\nimport cost of each package installed from its tarball (cold import() against bare `node -e 0`):');
  for (const { packageName, cost } of result.importCosts) console.log(`  ${packageName.padEnd(28)} ${formatImportCost(cost)}`);
}
const report = process.env['OPENWORK_CONSUMER_REPORT'];
if (report) writeFileSync(report, `${JSON.stringify(result, null, 2)}\n`);
if (result.failed > 0) {
  console.log('\nfailed checks:');
  for (const check of result.checks.filter((entry) => !entry.ok)) console.log(`  ${check.packageName} · ${check.name}`);
}
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\nconsumer test on Node ${process.version}: ${result.failed === 0 && result.passed > 0 ? 'PASSED' : 'FAILED'} (${result.passed} checks passed, ${result.failed} failed, ${seconds} s)`);
process.exit(result.failed === 0 && result.passed > 0 ? 0 : 1);
