import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const packagesDirectory = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages');

/**
 * Runs the first ```ts block of a package's README as a module, with `@openwork/<name>` imports
 * pointed at the current sources of the workspace packages, and returns what it printed with
 * console.log, one string per call. `environment` is set in process.env while it runs.
 */
export async function runReadmeExample(packageDirectory: string, environment: Record<string, string> = {}): Promise<string[]> {
  const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (example === undefined) throw new Error(`${packageDirectory}/README.md has no \`\`\`ts example`);
  const runnable = example.replace(/from '@openwork\/([a-z-]+)'/g, (_, name: string) =>
    `from ${JSON.stringify(pathToFileURL(join(packagesDirectory, name, 'src', 'index.ts')).href)}`,
  );
  const directory = await mkdtemp(join(tmpdir(), 'ow-readme-'));
  const printed: string[] = [];
  const log = console.log;
  const saved = Object.fromEntries(Object.keys(environment).map((key) => [key, process.env[key]]));
  console.log = (...parts: unknown[]) => {
    printed.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
  };
  Object.assign(process.env, environment);
  try {
    const file = join(directory, 'example.ts');
    await writeFile(file, `${runnable}\nexport {};\n`);
    await import(/* @vite-ignore */ pathToFileURL(file).href);
  } finally {
    console.log = log;
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await rm(directory, { recursive: true, force: true });
  }
  return printed;
}
