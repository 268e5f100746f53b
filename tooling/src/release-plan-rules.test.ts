import getReleasePlan from '@changesets/get-release-plan';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readWorkspace } from './package-graph.ts';
import { bundledLibraries, findReleasePlanProblems, findUnreleasedBundles, type PlannedChangeset, type PlannedRelease } from './release-plan-rules.ts';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function publishableOf(root: string) {
  return readWorkspace(root)
    .filter((entry) => entry.manifest.private !== true && entry.manifest.name !== undefined)
    .map((entry) => ({ name: entry.manifest.name ?? '', version: (entry.manifest as { version?: string }).version ?? '' }));
}

describe('the changesets publish the versions the manifests and notes say', () => {
  it('this repository: every unreleased package is first published as 0.1.0 or 1.0.0, and "First release" notes agree', async () => {
    const plan = await getReleasePlan(workspaceRoot);
    const publishable = publishableOf(workspaceRoot);
    expect(findReleasePlanProblems(plan, publishable)).toEqual([]);
    const firstReleases = plan.releases.filter((release) => release.oldVersion === '0.0.0').map((release) => `${release.name}@${release.newVersion}`);
    expect(firstReleases).toEqual(expect.arrayContaining(['@openwork/tools-contract@0.1.0', '@openwork/sandbox@0.1.0', '@openwork/fs-backend@0.1.0', '@openwork/process-backend@0.1.0']));
  });

  const release = (name: string, oldVersion: string, newVersion: string, type = 'minor'): PlannedRelease => ({ name, type, oldVersion, newVersion, changesets: ['a'] });
  const changeset = (id: string, summary: string, name: string): PlannedChangeset => ({ id, summary, releases: [{ name, type: 'minor' }] });

  it('finds a manifest at 0.1.0 whose "First release" changeset would publish 0.2.0', () => {
    const plan = { changesets: [changeset('sandbox-initial', 'First release of the sandbox', '@openwork/sandbox')], releases: [release('@openwork/sandbox', '0.1.0', '0.2.0')] };
    expect(findReleasePlanProblems(plan, [{ name: '@openwork/sandbox', version: '0.1.0' }])).toEqual([
      '.changeset/sandbox-initial.md calls itself the first release of @openwork/sandbox, but package.json is at 0.1.0, so it would publish 0.2.0; set the version to 0.0.0 (unreleased) or reword the note',
    ]);
  });

  it('finds an unreleased package without a changeset, and a first release as a patch', () => {
    const plan = { changesets: [], releases: [release('@openwork/core', '0.0.0', '0.0.1', 'patch')] };
    expect(findReleasePlanProblems(plan, [{ name: '@openwork/builtins', version: '0.0.0' }, { name: '@openwork/core', version: '0.0.0' }])).toEqual([
      '@openwork/builtins has never been released (0.0.0) and no changeset releases it: add one ("First release of …")',
      '@openwork/core would be first published as 0.0.1; a first release is "minor" (0.1.0) or "major" (1.0.0)',
    ]);
  });

  it("finds an unreleased package the plan leaves alone (a 'none' release, no versions in @changesets/types 7)", () => {
    const none: PlannedRelease = { name: '@openwork/sandbox', type: 'none', oldVersion: undefined, newVersion: undefined, changesets: [] };
    expect(findReleasePlanProblems({ changesets: [], releases: [none] }, [{ name: '@openwork/sandbox', version: '0.0.0' }])).toEqual([
      '@openwork/sandbox has never been released (0.0.0) and no changeset releases it: add one ("First release of …")',
    ]);
  });

  it('accepts later releases of released packages', () => {
    const plan = { changesets: [changeset('x', 'Faster reads', '@openwork/fs-backend')], releases: [release('@openwork/fs-backend', '0.1.0', '0.2.0')] };
    expect(findReleasePlanProblems(plan, [{ name: '@openwork/fs-backend', version: '0.1.0' }])).toEqual([]);
  });

  it('this repository: a released library that the openwork bundle inlines releases openwork too', async () => {
    const bundles = bundledLibraries(readWorkspace(workspaceRoot).map((entry) => entry.manifest as Parameters<typeof bundledLibraries>[0][number]));
    expect(bundles.get('openwork')).toEqual(expect.arrayContaining(['@openwork/core', '@openwork/sandbox', '@openwork/tools-contract', '@openwork/store-sqlite']));
    expect(findUnreleasedBundles(await getReleasePlan(workspaceRoot), bundles)).toEqual([]);
  });

  it('finds a bundled library released without the app that bundles it', () => {
    const bundles = bundledLibraries([
      { name: 'openwork', bin: { openwork: './dist/bundle/openwork.js' }, dependencies: { re2: '^1.27.1' }, devDependencies: { '@openwork/core': 'workspace:^' } },
      { name: '@openwork/core', dependencies: { '@openwork/sandbox': 'workspace:^' } },
      { name: '@openwork/sandbox' },
      { name: '@openwork/ai-sdk', dependencies: { '@openwork/core': 'workspace:^' } },
    ]);
    expect(bundles).toEqual(new Map([['openwork', ['@openwork/core', '@openwork/sandbox']]]));
    expect(findUnreleasedBundles({ releases: [release('@openwork/sandbox', '0.1.0', '0.1.1', 'patch')] }, bundles)).toEqual([
      '@openwork/sandbox is released but openwork, which bundles it, is not: add "openwork": patch to the changeset of @openwork/sandbox',
    ]);
    expect(findUnreleasedBundles({ releases: [release('@openwork/sandbox', '0.1.0', '0.1.1', 'patch'), release('openwork', '0.1.0', '0.1.1', 'patch')] }, bundles)).toEqual([]);
  });
});
