/** A throwaway CA and a 127.0.0.1 server certificate, generated once per process. */
import { generate } from 'selfsigned';

export interface ServerCerts {
  /** CA certificate (PEM) that clients trust. */
  caCert: string;
  /** Server certificate (PEM) with IP SAN 127.0.0.1 and DNS SAN localhost, signed by the CA. */
  cert: string;
  /** Server private key (PEM). */
  key: string;
}

let cached: Promise<ServerCerts> | undefined;

async function create(): Promise<ServerCerts> {
  const notBeforeDate = new Date(Date.now() - 60 * 60 * 1000);
  const notAfterDate = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
  const ca = await generate([{ name: 'commonName', value: 'fake-kubernetes-ca' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'kube-apiserver' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { caCert: ca.cert, cert: server.cert, key: server.private };
}

/** The process-wide certificates (generated on first use). */
export function serverCerts(): Promise<ServerCerts> {
  cached ??= create();
  return cached;
}
