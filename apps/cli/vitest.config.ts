import { packageTestConfig } from '@openwork/tooling/vitest';

export default packageTestConfig('openwork');
