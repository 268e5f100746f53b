import { ToolResult } from '@openwork/tools-contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBashFixture, requireBubblewrap, type BashFixture } from '../bash/test-support/bash-fixture.js';
import { isCredentialName, localEnvironment } from './local-environment.js';
import { ToolSessionContext } from './tool-session-context.js';

// Proxy and CA settings reach commands by default, credentials never (docs/decisions/0102).

const host = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/dev',
  HTTPS_PROXY: 'http://proxy.internal:3128',
  http_proxy: 'http://proxy.internal:3128',
  NO_PROXY: 'localhost,127.0.0.1,.internal',
  no_proxy: 'localhost',
  NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem',
  SSL_CERT_FILE: '/etc/corp/ca.pem',
  SSL_CERT_DIR: '/etc/ssl/certs',
  REQUESTS_CA_BUNDLE: '/etc/corp/ca.pem',
  npm_config_registry: 'https://npm.internal/',
  npm_config_cafile: '/etc/corp/ca.pem',
  npm_config_strict_ssl: 'true',
  npm_config__auth: 'dXNlcjpwYXNz',
  npm_config__authToken: 'npm_secret',
  'npm_config_//npm.internal/:_authToken': 'npm_secret',
  npm_config_password: 'hunter2',
  npm_config_username: 'dev',
  npm_config_email: 'dev@example.invalid',
  npm_config_key: '-----BEGIN PRIVATE KEY-----',
  npm_config_cert: '-----BEGIN CERTIFICATE-----',
  GITHUB_TOKEN: 'ghp_secret',
  NPM_TOKEN: 'npm_secret',
  AWS_SECRET_ACCESS_KEY: 'aws_secret',
  OPENAI_API_KEY: 'sk-secret',
  SSH_AUTH_SOCK: '/run/user/1000/ssh-agent',
  NODE_OPTIONS: '--require /tmp/evil.js',
  PIP_INDEX_URL: 'https://pypi.internal/simple',
};

describe('localEnvironment', () => {
  it('passes the six, the proxy and CA settings and npm configuration; no credential, no other variable', () => {
    expect(localEnvironment(host)).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/dev',
      HTTPS_PROXY: 'http://proxy.internal:3128',
      http_proxy: 'http://proxy.internal:3128',
      NO_PROXY: 'localhost,127.0.0.1,.internal',
      no_proxy: 'localhost',
      NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem',
      SSL_CERT_FILE: '/etc/corp/ca.pem',
      SSL_CERT_DIR: '/etc/ssl/certs',
      REQUESTS_CA_BUNDLE: '/etc/corp/ca.pem',
      npm_config_registry: 'https://npm.internal/',
      npm_config_cafile: '/etc/corp/ca.pem',
      npm_config_strict_ssl: 'true',
    });
  });

  it('a proxy URL with a password passes only when the user names the variable', () => {
    const withPassword = { ...host, HTTPS_PROXY: 'http://dev:hunter2@proxy.internal:3128' };
    expect(localEnvironment(withPassword)).not.toHaveProperty('HTTPS_PROXY');
    expect(localEnvironment(withPassword, { pass: ['HTTPS_PROXY'] })['HTTPS_PROXY']).toBe('http://dev:hunter2@proxy.internal:3128');
  });

  it('the allow-list adds names and prefixes, and refuses a credential or a malformed entry', () => {
    expect(localEnvironment(host, { pass: ['PIP_*'] })['PIP_INDEX_URL']).toBe('https://pypi.internal/simple');
    expect(() => localEnvironment(host, { pass: ['GITHUB_TOKEN'] })).toThrow(/names a credential; credentials never reach commands/);
    expect(() => localEnvironment(host, { pass: ['npm_config__authToken'] })).toThrow(/names a credential/);
    expect(() => localEnvironment(host, { pass: ['NODE OPTIONS'] })).toThrow(/is not a variable name or a prefix ending in \*/);
    // A prefix never lets a credential through.
    expect(localEnvironment(host, { pass: ['npm_*', 'GITHUB_*', 'AWS_*'] })).not.toHaveProperty('GITHUB_TOKEN');
    expect(localEnvironment(host, { pass: ['AWS_*'] })).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
  });

  it('knows credential names', () => {
    for (const name of ['GITHUB_TOKEN', 'NPM_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY', 'DB_PASSWORD', 'npm_config__auth', 'npm_config__authToken', 'npm_config_//registry.npmjs.org/:_authToken', 'npm_config_otp', 'npm_config_key', 'npm_config_cert']) {
      expect(isCredentialName(name), name).toBe(true);
    }
    for (const name of ['HTTPS_PROXY', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'PIP_CERT', 'npm_config_cafile', 'npm_config_registry', 'npm_config_cache']) {
      expect(isCredentialName(name), name).toBe(false);
    }
  });
});

describe('bash sees the proxy and CA settings, never the credentials', () => {
  const fixtures: BashFixture[] = [];
  beforeAll(requireBubblewrap);
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
  });

  it('through ToolSessionContext.local and a real sandboxed command', async () => {
    const first = await createBashFixture();
    fixtures.push(first);
    const context = ToolSessionContext.local({
      workingDirectory: first.workspace,
      homeDirectory: first.home,
      openworkHome: first.openworkHome,
      sandbox: first.sandbox,
      processEnvironment: { ...host, HOME: first.home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      passEnvironment: ['PIP_INDEX_URL'],
    });
    expect(context.environment).toMatchObject({ HTTPS_PROXY: 'http://proxy.internal:3128', PIP_INDEX_URL: 'https://pypi.internal/simple', HOME: first.home });
    expect(context.environment).not.toHaveProperty('GITHUB_TOKEN');
    // A session on the real sandbox with exactly that environment.
    const probe = await createBashFixture({ environment: context.environment });
    fixtures.push(probe);
    const result = await probe.call('bash', { command: 'env | sort' });
    const text = ToolResult.text(result);
    expect(text).toContain('HTTPS_PROXY=http://proxy.internal:3128');
    expect(text).toContain('NODE_EXTRA_CA_CERTS=/etc/corp/ca.pem');
    expect(text).toContain('npm_config_registry=https://npm.internal/');
    expect(text).toContain('PIP_INDEX_URL=https://pypi.internal/simple');
    for (const secret of ['ghp_secret', 'npm_secret', 'aws_secret', 'sk-secret', 'hunter2', 'dXNlcjpwYXNz', 'PRIVATE KEY', 'evil.js', 'ssh-agent']) expect(text).not.toContain(secret);
  });
});
