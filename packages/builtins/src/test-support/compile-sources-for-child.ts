import { mkdtemp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpilePackageSources } from '@openwork/tooling/transpile-package-sources';

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageRoot = join(sourceRoot, '..');

/**
 * This package's current sources as plain ESM in a new directory inside the package (so
 * `@openwork/*` and `zod` resolve through its node_modules), for a real child Node process to run.
 * Returns the directory; the caller removes it.
 */
export async function compileSourcesForChild(): Promise<string> {
  const outputDirectory = await mkdtemp(join(packageRoot, '.child-build-'));
  await transpilePackageSources(sourceRoot, outputDirectory);
  return outputDirectory;
}
