import { symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpilePackageSources } from '@openwork/tooling/transpile-package-sources';

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageRoot = join(sourceRoot, '..');

/**
 * This package's current sources as plain ESM in `outputDirectory`, next to a link to the
 * package's `node_modules`, so that a real child Node process can run them with better-sqlite3 and
 * `@openwork/session-store`. Returns the output path of `relativePath`.
 */
export async function compileSourcesForChild(outputDirectory: string, relativePath: string): Promise<string> {
  await transpilePackageSources(sourceRoot, outputDirectory);
  await symlink(join(packageRoot, 'node_modules'), join(outputDirectory, 'node_modules'), 'dir');
  return join(outputDirectory, relativePath.replace(/\.ts$/, '.js'));
}
