import { packageTestConfig } from '@openwork/tooling/vitest';

export default packageTestConfig('ai-sdk');
