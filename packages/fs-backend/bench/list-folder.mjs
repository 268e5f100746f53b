// Cost of exact file names (docs/decisions/0003-exact-file-names-and-the-xnn-spelling.md) in the walk of grep and glob: `listFolderSync` of every folder
// under this repository's node_modules/.pnpm (names all UTF-8, the common case) against the bare
// Node calls it used to be (`readdirSync` with types, then `lstatSync`), paired: each round runs
// both, alternating which goes first. Then the same for a tree where every tenth name is not
// UTF-8 (each such folder is listed twice: as text, then as bytes). Prints medians, the median of
// the per-round ratios and the load average.
// Run after a build: `pnpm run build && pnpm run bench:list`. `FS_BACKEND_REFERENCE_DIST=<dist
// folder>` makes another build's `listFolderSync` the reference instead (e.g. one from before a
// change: a paired before/after in one process).
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const referenceDist = process.env.FS_BACKEND_REFERENCE_DIST === undefined ? undefined : resolve(process.env.FS_BACKEND_REFERENCE_DIST);
const { NodeFileSystem } = await import(pathToFileURL(join(dist, 'index.js')).href);
const reference = referenceDist === undefined ? undefined : new (await import(pathToFileURL(join(referenceDist, 'index.js')).href)).NodeFileSystem();
const rounds = 15;
const fileSystem = new NodeFileSystem();
const referenceName = reference === undefined ? 'bare Node' : 'reference build';

/** Every folder below `root`, links not followed. */
function foldersOf(root) {
  const folders = [root];
  for (let index = 0; index < folders.length; index += 1) {
    for (const entry of readdirSync(folders[index], { withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(join(folders[index], entry.name));
    }
  }
  return folders;
}

function bare(folders) {
  let names = 0;
  if (reference !== undefined) {
    for (const folder of folders) names += reference.listFolderSync(folder)?.length ?? 0;
    return names;
  }
  for (const folder of folders) {
    names += readdirSync(folder, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: entry.isFile() ? 'file' : 'other' })).length;
    lstatSync(folder);
  }
  return names;
}

function ours(folders) {
  let names = 0;
  for (const folder of folders) names += fileSystem.listFolderSync(folder)?.length ?? 0;
  return names;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function measure(label, folders) {
  const theirs = [];
  const mine = [];
  const ratios = [];
  for (let round = 0; round < rounds; round += 1) {
    const time = (run) => {
      const started = performance.now();
      run(folders);
      return performance.now() - started;
    };
    let reference;
    let measured;
    if (round % 2 === 0) {
      reference = time(bare);
      measured = time(ours);
    } else {
      measured = time(ours);
      reference = time(bare);
    }
    theirs.push(reference);
    mine.push(measured);
    ratios.push(measured / reference);
  }
  console.log(
    `${label}: ${folders.length} folders, ${referenceName} ${median(theirs).toFixed(1)} ms, listFolderSync ${median(mine).toFixed(1)} ms, paired ratio ${median(ratios).toFixed(3)}`,
  );
}

console.log(`reference: ${referenceDist ?? 'bare readdirSync + lstatSync'}; load average ${loadavg().map((load) => load.toFixed(2)).join(' ')}; ${rounds} rounds`);
const store = join(here, '..', '..', '..', 'node_modules', '.pnpm');
measure('all-UTF-8 names (node_modules/.pnpm)', foldersOf(store));

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'fs-backend-list-bench-')));
try {
  for (let folder = 0; folder < 400; folder += 1) {
    const path = Buffer.from(join(scratch, `d${folder}`));
    mkdirSync(path);
    for (let file = 0; file < 20; file += 1) {
      const name = file === 0 && folder % 10 === 0 ? Buffer.concat([Buffer.from(`f${file}`), Buffer.of(0xe9)]) : Buffer.from(`f${file}.txt`);
      writeFileSync(Buffer.concat([path, Buffer.from('/'), name]), '');
    }
  }
  measure('every tenth folder holds a name that is not UTF-8', foldersOf(scratch));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`load average after: ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
