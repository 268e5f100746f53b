// Cost of race-safe writes (architecture §3.7 "Races"): `atomicWrite` through a held folder
// descriptor (the Linux default) against the same write by path (the macOS fallback, switched on
// here for the reference), paired: each round runs both, alternating which goes first, in a folder
// five levels deep. Prints the median of the per-round ratios and the load average.
// Run after a build: `pnpm run build && pnpm run bench:write`.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { forceDescriptorPaths } from '../dist/descriptor-paths.js';
import { NodeFileSystem } from '../dist/index.js';

const rounds = 9;
const writesPerRound = 200;
const fileSystem = new NodeFileSystem();
const root = await realpath(await mkdtemp(join(tmpdir(), 'fs-backend-bench-')));
const folder = join(root, 'a', 'b', 'c');
await mkdir(folder, { recursive: true });

async function timeWrites(descriptor) {
  forceDescriptorPaths(descriptor);
  const started = performance.now();
  for (let index = 0; index < writesPerRound; index += 1) await fileSystem.atomicWrite(join(folder, `f${index % 10}.txt`), `content ${index}\n`);
  return (performance.now() - started) / writesPerRound;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  const descriptor = [];
  const path = [];
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      descriptor.push(await timeWrites(true));
      path.push(await timeWrites(false));
    } else {
      path.push(await timeWrites(false));
      descriptor.push(await timeWrites(true));
    }
  }
  const ratios = descriptor.map((value, index) => value / path[index]);
  console.log(`atomicWrite, ${rounds} paired rounds of ${writesPerRound} writes, load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  console.log(`  held folder descriptor: median ${median(descriptor).toFixed(3)} ms per write`);
  console.log(`  by path (reference):    median ${median(path).toFixed(3)} ms per write`);
  console.log(`  ratio descriptor / path: median ${median(ratios).toFixed(2)}`);
} finally {
  forceDescriptorPaths(undefined);
  await rm(root, { recursive: true, force: true });
}
