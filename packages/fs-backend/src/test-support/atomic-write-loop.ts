/**
 * Child process of the crash test: atomically rewrites one target forever, alternating contents A
 * and B, announcing each write on stdout (`start <n>`), until the test SIGKILLs it.
 */
import { NodeFileSystem } from '../index.js';
import { crashTestContent } from './crash-test-content.js';

const target = process.argv[2];
if (target === undefined) throw new Error('usage: atomic-write-loop <absolute target path>');
const contents = [crashTestContent('A'), crashTestContent('B')] as const;
const fileSystem = new NodeFileSystem();
for (let index = 0; ; index += 1) {
  process.stdout.write(`start ${index}\n`);
  await fileSystem.atomicWrite(target, contents[index % 2] as Buffer);
}
