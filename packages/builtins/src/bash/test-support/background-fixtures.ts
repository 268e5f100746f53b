import { ToolResult, type ToolResult as Result } from '@openwork/tools-contract';
import { afterEach, beforeAll, expect } from 'vitest';
import type { BackgroundTaskArtifact } from '../background/background-task-state.js';
import { createBashFixture, requireBubblewrap, type BashFixture } from './bash-fixture.js';

/**
 * For a test file of background bash: requires bubblewrap, and after each test closes
 * the tasks of every fixture it made and removes its folders. Returns the fixture factory and the
 * list that `afterEach` empties (for fixtures made with other options).
 */
export function backgroundFixtures(): { readonly create: (options?: Parameters<typeof createBashFixture>[0]) => Promise<BashFixture>; readonly made: BashFixture[] } {
  const made: BashFixture[] = [];
  beforeAll(requireBubblewrap);
  afterEach(async () => {
    for (const fixture of made.splice(0)) {
      await fixture.session.backgroundTasks.close();
      await fixture.cleanup();
    }
  });
  return {
    made,
    create: async (options) => {
      const fixture = await createBashFixture(options);
      made.push(fixture);
      return fixture;
    },
  };
}

/** The `background_task` artifact of a result (the result's text names why when there is none). */
export function backgroundTaskOf(result: Result): BackgroundTaskArtifact {
  const artifact = result.artifacts.find((candidate) => candidate.kind === 'background_task');
  expect(artifact, ToolResult.text(result)).toBeDefined();
  return artifact as unknown as BackgroundTaskArtifact;
}
