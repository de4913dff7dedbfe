import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadKubeConfig } from '../../src/kube/config.js';
import { ConfigError } from '../../src/shared/errors.js';
import { kubeconfigYaml, TOKEN } from './fixtures.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubecfg-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const KEY_DATA = Buffer.from(
  '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIFakeKey\n-----END EC PRIVATE KEY-----\n',
).toString('base64');

const twoContexts = `apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster: {server: "https://10.0.0.1:6443", insecure-skip-tls-verify: true}
- name: staging
  cluster: {server: "https://10.0.0.2:6443", insecure-skip-tls-verify: true}
users:
- name: ci
  user:
    client-certificate-data: ${Buffer.from('CERT').toString('base64')}
    client-key-data: ${KEY_DATA}
- name: basic
  user: {username: admin, password: "hunter2-pa55"}
- name: oidc
  user:
    auth-provider:
      name: oidc
      config: {id-token: "eyJid.token.sig", refresh-token: "refresh-xyz", client-id: "kubectl"}
contexts:
- name: prod-ci
  context: {cluster: prod, user: ci}
- name: staging-basic
  context: {cluster: staging, user: basic}
- name: staging-oidc
  context: {cluster: staging, user: oidc}
current-context: prod-ci
`;

function expectConfigError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('kubeconfig content', () => {
  test('loads YAML content; secrets hold the token, never the whole file', () => {
    const content = kubeconfigYaml();
    const { kc, secrets, source } = loadKubeConfig({ kubeconfig: content, env: {} });
    expect(source).toBe('the kubeconfig input');
    expect(kc.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    expect(secrets).toEqual([TOKEN]);
    expect(secrets).not.toContain(content);
    expect(secrets.some((s) => s.includes('\n'))).toBe(false);
  });

  test('collects client keys, passwords and auth-provider tokens; selects a context', () => {
    const { kc, secrets } = loadKubeConfig({ kubeconfig: twoContexts, context: 'staging-basic', env: {} });
    expect(kc.getCurrentContext()).toBe('staging-basic');
    expect(kc.getCurrentCluster()?.name).toBe('staging');
    expect(secrets.sort()).toEqual([KEY_DATA, 'eyJid.token.sig', 'hunter2-pa55', 'refresh-xyz'].sort());
    expect(secrets).not.toContain(Buffer.from('CERT').toString('base64'));
  });

  test('accepts JSON and base64-encoded content (the base64 text is masked too)', () => {
    const json = JSON.stringify({
      apiVersion: 'v1',
      clusters: [
        { name: 'c', cluster: { server: 'https://127.0.0.1:6443', 'insecure-skip-tls-verify': true } },
      ],
      users: [{ name: 'u', user: { token: 'json-token-123' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    });
    expect(loadKubeConfig({ kubeconfig: json, env: {} }).secrets).toEqual(['json-token-123']);
    const b64 = Buffer.from(kubeconfigYaml()).toString('base64');
    const loaded = loadKubeConfig({ kubeconfig: b64, env: {} });
    expect(loaded.kc.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    expect(loaded.secrets).toEqual(expect.arrayContaining([TOKEN, b64]));
  });

  test('bad YAML: names the input and the position, never echoes content', () => {
    const bad = `apiVersion: v1
users:
- name: u
  user:
    token: ${TOKEN}
   broken: indentation
`;
    const err = expectConfigError(() => loadKubeConfig({ kubeconfig: bad, env: {} }));
    expect(err.input).toBe('kubeconfig');
    expect(err.message).toMatch(
      /^the kubeconfig input is not valid YAML or JSON: .+ at line \d+, column \d+$/,
    );
    expect(err.message).not.toContain(TOKEN);
    expect(err.message).not.toContain('broken');
  });

  test('a path given as content gets a hint', () => {
    const err = expectConfigError(() => loadKubeConfig({ kubeconfig: '/home/runner/.kube/config', env: {} }));
    expect(err.message).toContain('looks like a file path');
  });

  test('unknown context lists the available names', () => {
    const err = expectConfigError(() =>
      loadKubeConfig({ kubeconfig: twoContexts, context: 'prod', env: {} }),
    );
    expect(err.input).toBe('context');
    expect(err.message).toBe(
      'context "prod" is not in the kubeconfig input; available contexts: prod-ci, staging-basic, staging-oidc',
    );
  });

  test('no clusters / no current-context / dangling references are errors', () => {
    expect(
      expectConfigError(() =>
        loadKubeConfig({ kubeconfig: 'apiVersion: v1\nkind: Config\nclusters: []\n', env: {} }),
      ).message,
    ).toBe('the kubeconfig input defines no clusters');
    const noCurrent = twoContexts.replace('current-context: prod-ci\n', '');
    expect(expectConfigError(() => loadKubeConfig({ kubeconfig: noCurrent, env: {} })).message).toBe(
      'the kubeconfig input has no current-context; set the context input (available contexts: prod-ci, staging-basic, staging-oidc)',
    );
    const dangling = twoContexts.replace('current-context: prod-ci', 'current-context: gone');
    expect(expectConfigError(() => loadKubeConfig({ kubeconfig: dangling, env: {} })).message).toContain(
      'current-context "gone" is not in the kubeconfig input',
    );
    const badCluster = twoContexts.replace('{cluster: prod, user: ci}', '{cluster: nope, user: ci}');
    expect(expectConfigError(() => loadKubeConfig({ kubeconfig: badCluster, env: {} })).message).toBe(
      'context "prod-ci" refers to cluster "nope", which the kubeconfig input does not define',
    );
    const missingServer = kubeconfigYaml().replace('    server: https://127.0.0.1:6443\n', '');
    expect(expectConfigError(() => loadKubeConfig({ kubeconfig: missingServer, env: {} })).message).toBe(
      'the kubeconfig input is not a valid kubeconfig: clusters[0].cluster.server is missing',
    );
  });

  test('http:// without insecure-skip-tls-verify and a missing CA file are caught at load time', () => {
    const http = kubeconfigYaml('http://127.0.0.1:8080').replace('    insecure-skip-tls-verify: true\n', '');
    expect(expectConfigError(() => loadKubeConfig({ kubeconfig: http, env: {} })).message).toContain(
      'uses http://',
    );
    const ca = kubeconfigYaml().replace('insecure-skip-tls-verify: true', 'certificate-authority: ca.crt');
    const err = expectConfigError(() => loadKubeConfig({ kubeconfig: ca, env: {}, kubeconfigDir: dir }));
    expect(err.message).toBe(
      `certificate-authority of cluster "kind" in the kubeconfig input: file ${path.join(dir, 'ca.crt')} does not exist`,
    );
    fs.writeFileSync(path.join(dir, 'ca.crt'), 'PEM');
    expect(
      loadKubeConfig({ kubeconfig: ca, env: {}, kubeconfigDir: dir }).kc.getCurrentCluster()?.caFile,
    ).toBe(path.join(dir, 'ca.crt'));
  });

  test('insecure-skip-tls-verify next to a CA is refused, as kubectl does: the CA would be ignored', () => {
    const both = kubeconfigYaml().replace(
      'insecure-skip-tls-verify: true',
      'insecure-skip-tls-verify: true\n    certificate-authority-data: UEVN',
    );
    expect(expectConfigError(() => loadKubeConfig({ kubeconfig: both, env: {} })).message).toBe(
      'cluster "kind" in the kubeconfig input sets insecure-skip-tls-verify together with a certificate authority; remove one of them (kubectl refuses this combination too)',
    );
  });
});

describe('files and in-cluster', () => {
  test('KUBECONFIG path list: merged, first wins, missing files skipped, relative paths resolved', () => {
    const a = path.join(dir, 'a.yaml');
    const b = path.join(dir, 'b.yaml');
    fs.writeFileSync(
      a,
      kubeconfigYaml().replace('insecure-skip-tls-verify: true', 'certificate-authority: ca.crt'),
    );
    fs.writeFileSync(path.join(dir, 'ca.crt'), 'PEM');
    fs.writeFileSync(
      b,
      twoContexts.replace('current-context: prod-ci\n', 'current-context: staging-basic\n'),
    );
    const env = { KUBECONFIG: [path.join(dir, 'missing.yaml'), a, b].join(path.delimiter) };
    const { kc, source, secrets } = loadKubeConfig({ env });
    expect(kc.getCurrentContext()).toBe('kind-kind');
    expect(kc.getContexts().map((c) => c.name)).toEqual([
      'kind-kind',
      'prod-ci',
      'staging-basic',
      'staging-oidc',
    ]);
    expect(kc.getCurrentCluster()?.caFile).toBe(path.join(dir, 'ca.crt'));
    expect(source).toBe(`KUBECONFIG (${a}${path.delimiter}${b})`);
    expect(secrets).toContain(TOKEN);
    expect(loadKubeConfig({ env, context: 'staging-oidc' }).kc.getCurrentUser()?.name).toBe('oidc');
  });

  test('KUBECONFIG errors name the file', () => {
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, 'clusters: [\n');
    expect(expectConfigError(() => loadKubeConfig({ env: { KUBECONFIG: bad } })).message).toMatch(
      new RegExp(`^file ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid YAML or JSON: `),
    );
    expect(
      expectConfigError(() => loadKubeConfig({ env: { KUBECONFIG: path.join(dir, 'nope') } })).message,
    ).toBe(`KUBECONFIG names a file that does not exist: ${path.join(dir, 'nope')}`);
  });

  test('~/.kube/config from HOME; content wins over KUBECONFIG', () => {
    fs.mkdirSync(path.join(dir, '.kube'));
    fs.writeFileSync(path.join(dir, '.kube', 'config'), twoContexts);
    const home = loadKubeConfig({ env: { HOME: dir } });
    expect(home.source).toBe(`file ${path.join(dir, '.kube', 'config')}`);
    expect(home.kc.getCurrentContext()).toBe('prod-ci');
    const content = loadKubeConfig({
      kubeconfig: kubeconfigYaml(),
      env: { HOME: dir, KUBECONFIG: '/nonexistent' },
    });
    expect(content.source).toBe('the kubeconfig input');
  });

  test('in-cluster service account; the token is a secret', () => {
    fs.writeFileSync(path.join(dir, 'token'), 'sa-token-abcdef\n');
    fs.writeFileSync(path.join(dir, 'ca.crt'), 'PEM');
    fs.writeFileSync(path.join(dir, 'namespace'), 'ci');
    const env = {
      HOME: path.join(dir, 'nohome'),
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
    };
    const { kc, secrets, source } = loadKubeConfig({ env, serviceAccountDir: dir });
    expect(source).toBe('the in-cluster service account');
    expect(kc.getCurrentCluster()?.server).toBe('https://10.96.0.1:443');
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('ci');
    expect(secrets).toEqual(['sa-token-abcdef']);
  });

  test('nothing configured', () => {
    const err = expectConfigError(() => loadKubeConfig({ env: { HOME: dir }, serviceAccountDir: dir }));
    expect(err.message).toContain('no Kubernetes configuration found');
    expect(err.input).toBe('kubeconfig');
  });
});
