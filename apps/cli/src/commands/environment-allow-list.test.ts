import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCliSandbox, runOpenwork, type CliSandbox } from '../test-support/cli-sandbox.js';
import { mcpTestClients, resultText } from '../test-support/mcp-test-client.js';

// The proxy and CA settings of the host reach bash through `openwork mcp` and `openwork call`;
// credentials never (docs/decisions/0102). Real processes, real bubblewrap, temp homes.

let sandbox: CliSandbox;
const { connect, closeAll } = mcpTestClients(() => sandbox);

beforeEach(async () => {
  sandbox = await createCliSandbox();
});

afterEach(async () => {
  await closeAll();
  await sandbox.remove();
});

const hostSettings = {
  HTTPS_PROXY: 'http://proxy.internal:3128',
  no_proxy: 'localhost,127.0.0.1',
  NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem',
  SSL_CERT_FILE: '/etc/corp/ca.pem',
  npm_config_registry: 'https://npm.internal/',
  npm_config__authToken: 'npm_secret_value',
  GITHUB_TOKEN: 'ghp_secret_value',
  PIP_INDEX_URL: 'https://pypi.internal/simple',
};

describe('the environment allow-list', () => {
  it('openwork mcp: bash gets the proxy and CA settings, npm configuration and what OPENWORK_PASS_ENV adds; no credential', async () => {
    const { client } = await connect({ environment: { ...sandbox.environment, ...hostSettings, OPENWORK_PASS_ENV: 'PIP_INDEX_URL' } });
    const text = resultText(await client.callTool({ name: 'bash', arguments: { command: 'env | sort' } }));
    expect(text).toContain('HTTPS_PROXY=http://proxy.internal:3128');
    expect(text).toContain('no_proxy=localhost,127.0.0.1');
    expect(text).toContain('NODE_EXTRA_CA_CERTS=/etc/corp/ca.pem');
    expect(text).toContain('SSL_CERT_FILE=/etc/corp/ca.pem');
    expect(text).toContain('npm_config_registry=https://npm.internal/');
    expect(text).toContain('PIP_INDEX_URL=https://pypi.internal/simple');
    expect(text).not.toContain('secret_value');
    expect(text).not.toContain('OPENWORK_PASS_ENV');
  });

  it('a credential in OPENWORK_PASS_ENV stops the command with a clear message; doctor lists what passes', async () => {
    const environment = { ...sandbox.environment, ...hostSettings, OPENWORK_PASS_ENV: 'GITHUB_TOKEN' };
    const refused = await runOpenwork(['call', 'bash', '{"command":"env"}', '--workspace', sandbox.workspace], { environment, cwd: sandbox.workspace });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('names a credential; credentials never reach commands');
    expect(refused.stdout).not.toContain('ghp_secret_value');
    const doctor = await runOpenwork(['doctor', '--json'], { environment: { ...environment, OPENWORK_PASS_ENV: 'PIP_INDEX_URL' }, cwd: sandbox.workspace });
    const report = JSON.parse(doctor.stdout) as Record<string, string>;
    expect(report['environment']).toContain('passed from here: HTTPS_PROXY, NODE_EXTRA_CA_CERTS, PIP_INDEX_URL, SSL_CERT_FILE, no_proxy, npm_config_registry;');
    expect(report['environment']).not.toContain('GITHUB_TOKEN');
  });
});
