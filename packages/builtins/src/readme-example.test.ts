import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('README', () => {
  it('the example runs against the public entry point and prints what it claims', async () => {
    const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const runnable = (example ?? '').replace("from '@openwork/builtins'", `from ${JSON.stringify(pathToFileURL(join(packageDirectory, 'src', 'index.ts')).href)}`);
    // Inside the package, so that the example's other imports resolve like a consumer's.
    const directory = await mkdtemp(join(packageDirectory, '.child-build-readme-'));
    const logged: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
      logged.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
    });
    try {
      const file = join(directory, 'example.ts');
      await writeFile(file, `${runnable}\nexport {};\n`);
      await import(/* @vite-ignore */ pathToFileURL(file).href);
    } finally {
      log.mockRestore();
      await rm(directory, { recursive: true, force: true });
    }
    expect(logged[0]).toMatch(/^read write edit( grep)?( glob)? list( bash( bash_output bash_input bash_kill)?)?$/);
    expect(logged[1]).toBe('Read greeting.txt before editing it.');
    expect(logged[2]).toBe('1\thello\n2\tworld');
    expect(logged[3]).toBe('Edited greeting.txt:2 (+1 -1)');
    expect(logged[4]).toBe('{"kind":"file_change","change":{"changeId":"call_3","path":"');
    expect(logged[5]).toMatch(/^Permission denied: \/.*\/home\/notes\.txt is outside the writable roots of this session\. To get access, call write again with sandboxPermissions \{"paths":\[\{"path":"\/.*\/home\/notes\.txt","access":"write","scope":"exact"\}\]\} and a one-line justification; the user will be asked\.$/);
    expect(logged[6]).toBe('true "hello\\nworld\\n"');
    expect(logged).toHaveLength(7);
  });

  it('the bash example runs on the real sandbox and prints what it claims', async () => {
    const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
    const example = /## bash \(§7\.9\)\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const logged = await runExample(example ?? '');
    expect(logged[0]).toMatch(/^token: none\n\[exit 3; duration \d+ ms\]$/);
    expect(logged[1]).toBe('stdout');
    expect(logged[2]).toBe('succeeded true [sandbox denied:');
    expect(logged[3]).toBe('... (572511 bytes omitted. Full output saved at ~/.openwork/spill/session-1/call_3.txt — use read with offset/limit, or grep, to look at it.)');
    expect(logged).toHaveLength(4);
  });

  it('the background bash example (issue 26) answers a read -p prompt on a terminal and prints what it claims', async () => {
    const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
    const example = /## Background bash\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const logged = await runExample(example ?? '');
    expect(logged).toEqual(['continue? [y/N]', 'true true']);
  });

  it('the images, directories and notebooks example runs and prints what it claims', async () => {
    const readme = await readFile(join(packageDirectory, 'README.md'), 'utf8');
    const example = /### read: images, directories and notebooks\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const logged = await runExample(example ?? '');
    expect(logged[0]).toBe('dot.png\nnotes.md');
    expect(logged[1]).toMatch(/^image\/png 2×1, \d+ bytes$/);
    expect(logged[2]).toMatch(/^image\/png \d+$/);
    expect(logged[3]).toBe(
      '4\t[cell 2 · code]\n5\tprint(6 * 7)\n6\t[output · stdout]\n7\t42\n8\t\n\n[showing lines 4-8 of 12. Continue with offset=9]\n[notebook shown rendered; edit and write change its JSON text: grep -n the .ipynb to see the raw lines]',
    );
    expect(logged[4]).toBe('1');
    expect(logged[5]).toMatch(/^docs\/cut\.png starts like a PNG image but is not a valid one: its IDAT chunk runs past the end of the file \(the file is truncated\)\. read shows whole, valid images only; /);
    expect(logged).toHaveLength(6);
  });
});

/** Runs a README example against this package's sources, from a folder inside the package, and returns what it logged. */
async function runExample(example: string): Promise<string[]> {
  const runnable = example.replace("from '@openwork/builtins'", `from ${JSON.stringify(pathToFileURL(join(packageDirectory, 'src', 'index.ts')).href)}`);
  const directory = await mkdtemp(join(packageDirectory, '.child-build-readme-'));
  const logged: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    logged.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
  });
  try {
    const file = join(directory, 'example.ts');
    await writeFile(file, `${runnable}\nexport {};\n`);
    await import(/* @vite-ignore */ pathToFileURL(file).href);
  } finally {
    log.mockRestore();
    await rm(directory, { recursive: true, force: true });
  }
  return logged;
}
