import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpilePackageSources } from '@openwork/tooling/transpile-package-sources';

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * This package's current sources as plain ESM in `outputDirectory`, so a real child Node process
 * can run them. Returns the output path of `relativePath`.
 */
export async function compileSourcesForChild(outputDirectory: string, relativePath: string): Promise<string> {
  await transpilePackageSources(sourceRoot, outputDirectory);
  return join(outputDirectory, relativePath.replace(/\.ts$/, '.js'));
}
