/** Certificates and keys for a throwaway control plane and for a webhook a test serves, made with the openssl CLI (present wherever Go binaries run). */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Paths of the files a control plane needs, all inside one directory. */
export interface Pki {
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  saKey: string;
  saPub: string;
  frontProxyCaCert: string;
  proxyClientCert: string;
  proxyClientKey: string;
}

const DAYS = '2';

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function ecKey(dir: string, name: string): void {
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', name]);
}

function selfSignedCa(dir: string, base: string, cn: string): void {
  ecKey(dir, `${base}.key`);
  openssl(
    dir,
    ['req', '-x509', '-new', '-key', `${base}.key`, '-out', `${base}.crt`, '-days', DAYS].concat([
      '-subj',
      `/CN=${cn}`,
    ]),
  );
}

function signed(dir: string, base: string, ca: string, cn: string, extensions: string): void {
  ecKey(dir, `${base}.key`);
  openssl(dir, ['req', '-new', '-key', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${cn}`]);
  writeFileSync(join(dir, `${base}.ext`), extensions);
  openssl(
    dir,
    ['x509', '-req', '-in', `${base}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`].concat([
      '-CAcreateserial',
      '-out',
      `${base}.crt`,
      '-days',
      DAYS,
      '-extfile',
      `${base}.ext`,
    ]),
  );
}

/** Generate a CA, a serving certificate for 127.0.0.1, the service-account key pair and the front-proxy pair. */
export function generatePki(dir: string): Pki {
  selfSignedCa(dir, 'ca', 'realkube-ca');
  signed(
    dir,
    'server',
    'ca',
    'kube-apiserver',
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '',
    ].join('\n'),
  );
  // RSA, the key type every 1.20 token verifier accepts.
  openssl(dir, ['genrsa', '-out', 'sa.key', '2048']);
  openssl(dir, ['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub']);
  // Without the front-proxy pair the aggregator cannot reach APIServices and the controller-manager loops on errors.
  selfSignedCa(dir, 'front-proxy-ca', 'front-proxy-ca');
  signed(
    dir,
    'front-proxy-client',
    'front-proxy-ca',
    'front-proxy-client',
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=clientAuth',
      '',
    ].join('\n'),
  );
  const p = (name: string): string => join(dir, name);
  return {
    caCert: p('ca.crt'),
    caKey: p('ca.key'),
    serverCert: p('server.crt'),
    serverKey: p('server.key'),
    saKey: p('sa.key'),
    saPub: p('sa.pub'),
    frontProxyCaCert: p('front-proxy-ca.crt'),
    proxyClientCert: p('front-proxy-client.crt'),
    proxyClientKey: p('front-proxy-client.key'),
  };
}

/** Paths of a webhook's own CA and serving pair, for a server the test runs on loopback. */
export interface ServingPki {
  caCert: string;
  serverCert: string;
  serverKey: string;
}

/**
 * A CA and a serving certificate for 127.0.0.1 signed by it, made with the openssl CLI: what an admission webhook a test
 * serves on loopback presents, with the CA as its configuration's `caBundle`.
 */
export function servingPki(dir: string): ServingPki {
  selfSignedCa(dir, 'webhook-ca', 'webhook-ca');
  signed(
    dir,
    'webhook',
    'webhook-ca',
    '127.0.0.1',
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      'subjectAltName=IP:127.0.0.1',
      '',
    ].join('\n'),
  );
  return {
    caCert: join(dir, 'webhook-ca.crt'),
    serverCert: join(dir, 'webhook.crt'),
    serverKey: join(dir, 'webhook.key'),
  };
}
