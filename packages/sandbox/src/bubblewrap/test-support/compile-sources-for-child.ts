import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const packageRoot = join(sourceRoot, '..');

async function listSources(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await listSources(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/**
 * Transpiles this package's current sources (not a possibly stale `dist/`) to plain ESM in a new
 * directory inside the package (so `@openwork/*` and `zod` resolve through its node_modules), for
 * a real child Node process to run. Returns the directory; the caller removes it.
 */
export async function compileSourcesForChild(): Promise<string> {
  const outputDirectory = await mkdtemp(join(packageRoot, '.child-build-'));
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
  return outputDirectory;
}
