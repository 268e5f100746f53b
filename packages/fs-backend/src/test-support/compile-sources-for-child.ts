import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

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
 * as plain ESM, so a real child Node process can run them. Returns the output path of `relativePath`.
 */
export async function compileSourcesForChild(outputDirectory: string, relativePath: string): Promise<string> {
  await writeFile(join(outputDirectory, 'package.json'), '{"type":"module"}\n');
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
