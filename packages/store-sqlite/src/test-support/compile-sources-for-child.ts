import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageRoot = join(sourceRoot, '..');

async function listSources(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await listSources(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

/**
 * Transpiles this package's current sources (not a possibly stale `dist/`) into `outputDirectory`
 * as plain ESM, next to a link to the package's `node_modules`, so that a real child Node process
 * can run them with better-sqlite3 and `@openwork/session-store`. Returns the output path of
 * `relativePath`.
 */
export async function compileSourcesForChild(outputDirectory: string, relativePath: string): Promise<string> {
  await writeFile(join(outputDirectory, 'package.json'), '{"type":"module"}\n');
  await symlink(join(packageRoot, 'node_modules'), join(outputDirectory, 'node_modules'), 'dir');
  for (const source of await listSources(sourceRoot)) {
    const output = ts.transpileModule(await readFile(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: source,
    });
    const target = join(outputDirectory, relative(sourceRoot, source)).replace(/\.ts$/, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, output.outputText);
  }
  return join(outputDirectory, relativePath.replace(/\.ts$/, '.js'));
}
