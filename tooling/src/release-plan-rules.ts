/** One release of `changeset version`'s plan (the fields of @changesets/types' `ComprehensiveRelease` read here). */
export interface PlannedRelease {
  readonly name: string;
  readonly type: string;
  // `undefined` in a `none` release (@changesets/types 7: a package the plan leaves alone).
  readonly oldVersion: string | undefined;
  readonly newVersion: string | undefined;
  readonly changesets: readonly string[];
}

/** One changeset (`.changeset/<id>.md`). */
export interface PlannedChangeset {
  readonly id: string;
  readonly summary: string;
  readonly releases: readonly { readonly name: string; readonly type: string }[];
}

/** A changeset that introduces a package starts its note with these words. */
export const FIRST_RELEASE_NOTE = 'First release';

/**
 * Where the release plan would publish something other than what the manifests and the notes say
 * (the packaging rules: manifests at 0.1.0 plus "minor" changesets would have published 0.2.0 as the
 * "First release"). An unreleased package sits at version 0.0.0 and its changesets make it 0.1.0
 * (minor) or 1.0.0 (major); a "First release" note belongs to such a package only.
 * `publishable` are the names and manifest versions of the public workspace packages.
 */
export function findReleasePlanProblems(
  plan: { readonly changesets: readonly PlannedChangeset[]; readonly releases: readonly PlannedRelease[] },
  publishable: readonly { readonly name: string; readonly version: string }[],
): string[] {
  const problems: string[] = [];
  const releases = new Map(plan.releases.map((release) => [release.name, release]));
  for (const { name, version } of publishable) {
    const release = releases.get(name);
    if (version !== '0.0.0') continue;
    if (release === undefined || release.type === 'none') {
      problems.push(`${name} has never been released (0.0.0) and no changeset releases it: add one ("${FIRST_RELEASE_NOTE} of …")`);
    } else if (release.newVersion !== '0.1.0' && release.newVersion !== '1.0.0') {
      problems.push(`${name} would be first published as ${release.newVersion}; a first release is "minor" (0.1.0) or "major" (1.0.0)`);
    }
  }
  for (const changeset of plan.changesets) {
    if (!changeset.summary.trimStart().startsWith(FIRST_RELEASE_NOTE)) continue;
    for (const { name } of changeset.releases) {
      const release = releases.get(name);
      if (release !== undefined && release.oldVersion !== '0.0.0') {
        problems.push(
          `.changeset/${changeset.id}.md calls itself the first release of ${name}, but package.json is at ${release.oldVersion}, so it would publish ${release.newVersion}; set the version to 0.0.0 (unreleased) or reword the note`,
        );
      }
    }
  }
  return problems;
}

/** The fields of a workspace manifest `bundledLibraries` reads. */
interface BundlingManifest {
  readonly name?: string;
  readonly bin?: unknown;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

/**
 * The workspace libraries each app bundles: an app (a `bin`) whose workspace packages are
 * devDependencies inlines them, and with them every workspace package they depend on (the
 * `openwork` bundle). `packages` are the workspace's manifests.
 */
export function bundledLibraries(packages: readonly BundlingManifest[]): Map<string, string[]> {
  const byName = new Map(packages.filter((manifest) => manifest.name !== undefined).map((manifest) => [manifest.name as string, manifest]));
  const bundles = new Map<string, string[]>();
  for (const app of packages) {
    if (app.name === undefined || app.bin === undefined) continue;
    const found = new Set<string>();
    const visit = (name: string): void => {
      if (found.has(name) || !byName.has(name)) return;
      found.add(name);
      for (const dependency of Object.keys(byName.get(name)?.dependencies ?? {})) visit(dependency);
    };
    for (const name of Object.keys(app.devDependencies ?? {})) visit(name);
    if (found.size > 0) bundles.set(app.name, [...found].sort());
  }
  return bundles;
}

/**
 * A bundled library released without the app that bundles it: its users would not get the change,
 * and changesets never releases a package for a change in its devDependencies.
 */
export function findUnreleasedBundles(plan: { readonly releases: readonly PlannedRelease[] }, bundles: ReadonlyMap<string, readonly string[]>): string[] {
  const released = new Set(plan.releases.filter((release) => release.type !== 'none').map((release) => release.name));
  const problems: string[] = [];
  for (const [app, libraries] of bundles) {
    if (released.has(app)) continue;
    for (const library of libraries.filter((name) => released.has(name))) {
      problems.push(`${library} is released but ${app}, which bundles it, is not: add "${app}": patch to the changeset of ${library}`);
    }
  }
  return problems;
}
