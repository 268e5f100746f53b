import { describe, expect, it } from 'vitest';
import { vanishedMaskTarget } from '../bubblewrap/vanished-mask-target.js';
import { detectRunnerFailure } from '../command/detect-runner-failure.js';
import { stageFailureLine, STAGE_MOUNT_FAILED_MESSAGE } from './stage-mount-listing.js';

/** The stage helper's failures are the runner's, never a denial or the command's (architecture §3.5). */
describe("the stage helper's failures", () => {
  const gone = '/nonexistent-openwork-test/socket';
  const argv = ['/usr/bin/bwrap', '--ro-bind', '/', '/', '--', '/home/u/.openwork/helpers/stage-mount-x', 'ONC', '/tmp', 'userxattr,lowerdir=/tmp,upperdir=/dev/s/r0/upper,workdir=/dev/s/r0/work', gone, '/tmp', '/bin/bash', '-c', 'true'];

  it('is a runner failure, so the call is sandbox_unavailable, not a sandbox denial', () => {
    const output = stageFailureLine(STAGE_MOUNT_FAILED_MESSAGE, '/tmp', 13);
    expect(detectRunnerFailure({ exitCode: 127, output })?.line).toBe(output.trim());
  });

  it('a socket masked inside an overlay that vanished before the start is recognised (the call starts again)', () => {
    const output = stageFailureLine(STAGE_MOUNT_FAILED_MESSAGE, gone, 2);
    expect(vanishedMaskTarget(argv, { exitCode: 127, output })).toBe(gone);
  });

  it('an overlay or a path the helper does not mask with /dev/null is not that case', () => {
    expect(vanishedMaskTarget(argv, { exitCode: 127, output: stageFailureLine(STAGE_MOUNT_FAILED_MESSAGE, '/tmp', 2) })).toBeUndefined();
    expect(vanishedMaskTarget(argv, { exitCode: 127, output: stageFailureLine(STAGE_MOUNT_FAILED_MESSAGE, gone, 13) })).toBeUndefined();
    const command = ['/usr/bin/bwrap', '--', '/bin/bash', '-c', `echo '${stageFailureLine(STAGE_MOUNT_FAILED_MESSAGE, gone, 2).trim()}'`];
    expect(vanishedMaskTarget(command, { exitCode: 127, output: stageFailureLine(STAGE_MOUNT_FAILED_MESSAGE, gone, 2) })).toBeUndefined();
  });
});
