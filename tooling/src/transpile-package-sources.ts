import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

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
 * Transpiles the TypeScript sources under `sourceRoot` (tests and declaration files left out) to
 * plain ES2022 modules in `outputDirectory`, same layout, with a `package.json` that makes them
 * ESM: a package's current sources (not a possibly stale `dist/`) for a real child Node process to
 * run in tests — a crash, a second process, a `kill -9`. One copy for every package's test-support
 * (`compile-sources-for-child.ts` wraps it with the package's own paths).
 */
export async function transpilePackageSources(sourceRoot: string, outputDirectory: string): Promise<void> {
  await mkdir(outputDirectory, { recursive: true });
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
}
