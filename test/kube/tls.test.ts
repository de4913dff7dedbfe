/**
 * TLS through the client's one connection pool (one TLS context for all its connections): the kubeconfig's CA,
 * client certificate and tls-server-name still decide every connection.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { generate } from 'selfsigned';
import { createKube } from '../../src/kube/client.js';

type Pem = { cert: string; key: string };
const HOURS = 60 * 60 * 1000;
const validity = {
  notBeforeDate: new Date(Date.now() - HOURS),
  notAfterDate: new Date(Date.now() + 24 * HOURS),
};
const ec = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' } as const;

async function ca(cn: string): Promise<Pem> {
  const c = await generate([{ name: 'commonName', value: cn }], {
    ...ec,
    ...validity,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert: c.cert, key: c.private };
}

async function leaf(issuer: Pem, cn: string, usage: 'server' | 'client', names: string[] = []): Promise<Pem> {
  const c = await generate([{ name: 'commonName', value: cn }], {
    ...ec,
    ...validity,
    ca: { key: issuer.key, cert: issuer.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: usage === 'server', clientAuth: usage === 'client' },
      ...(names.length
        ? [{ name: 'subjectAltName' as const, altNames: names.map((value) => ({ type: 2 as const, value })) }]
        : []),
    ],
  });
  return { cert: c.cert, key: c.private };
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

function kubeconfig(port: number, caCert: string, user: string, tlsServerName?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(`apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: https://127.0.0.1:${port}
    certificate-authority-data: ${b64(caCert)}${tlsServerName ? `\n    tls-server-name: ${tlsServerName}` : ''}
users:
- name: u
  user:
${user}
contexts:
- name: c
  context: { cluster: c, user: u }
current-context: c
`);
  return kc;
}

/** A server that answers every request with the CN of the client certificate it verified ('' without one). */
async function serve(server: Pem, clientCa?: string): Promise<{ port: number; close: () => Promise<void> }> {
  const s = https.createServer(
    {
      ...server,
      ca: clientCa,
      requestCert: clientCa !== undefined,
      rejectUnauthorized: clientCa !== undefined,
    },
    (req, res) => {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Namespace',
          metadata: { name: peer?.subject?.CN ?? '', uid: 'u', resourceVersion: '1' },
        }),
      );
    },
  );
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    port: (s.address() as AddressInfo).port,
    close: () => new Promise((resolve) => s.close(() => resolve())),
  };
}

let serverCa: Pem;
let clientCa: Pem;
beforeAll(async () => {
  [serverCa, clientCa] = await Promise.all([ca('server-ca'), ca('client-ca')]);
});

test('the client certificate from the kubeconfig is presented on every connection of the pool', async () => {
  const serving = await leaf(serverCa, 'kube-apiserver', 'server', ['localhost']);
  const server = await serve(serving, clientCa.cert);
  const client = await leaf(clientCa, 'ci-deployer', 'client');
  // The serving certificate names localhost only: reached by IP, tls-server-name must be used to verify it.
  const user = `    client-certificate-data: ${b64(client.cert)}\n    client-key-data: ${b64(client.key)}`;
  const kube = createKube(kubeconfig(server.port, serverCa.cert, user, 'localhost'));
  try {
    // Eight at once: several connections, all from one TLS context.
    const names = await Promise.all(Array.from({ length: 8 }, () => kube.getNamespace('any')));
    expect(names.map((n) => n?.name)).toEqual(Array(8).fill('ci-deployer'));
  } finally {
    await kube.close();
    await server.close();
  }
});

test('a server whose certificate another CA signed is refused', async () => {
  const other = await ca('someone-else');
  const serving = await leaf(other, 'impostor', 'server', ['localhost']);
  const server = await serve(serving);
  const kube = createKube(
    kubeconfig(server.port, serverCa.cert, '    token: abcdefgh12345678', 'localhost'),
    {
      retry: { attempts: 1, baseMs: 1 },
    },
  );
  try {
    await expect(kube.getNamespace('any')).rejects.toThrow(/certificate|self.signed|issuer/i);
  } finally {
    await kube.close();
    await server.close();
  }
});

test('without tls-server-name, a serving certificate that does not name 127.0.0.1 is refused', async () => {
  const serving = await leaf(serverCa, 'kube-apiserver', 'server', ['localhost']);
  const server = await serve(serving);
  const kube = createKube(kubeconfig(server.port, serverCa.cert, '    token: abcdefgh12345678'), {
    retry: { attempts: 1, baseMs: 1 },
  });
  try {
    await expect(kube.getNamespace('any')).rejects.toThrow(/127\.0\.0\.1|altnames|ERR_TLS_CERT_ALTNAME/i);
  } finally {
    await kube.close();
    await server.close();
  }
});
