/** A TCP server that accepts connections and never answers: not even the TLS handshake. */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A listening silent server; `kubeconfig` points at it with a token; `stop()` drops every connection. */
export async function silentServer(): Promise<{
  url: string;
  kubeconfig: string;
  connections: () => number;
  stop: () => Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfig = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: silent',
    '  cluster:',
    `    server: ${url}`,
    '    insecure-skip-tls-verify: true',
    'contexts:',
    '- name: silent',
    '  context: { cluster: silent, user: silent }',
    'current-context: silent',
    'users:',
    '- name: silent',
    '  user: { token: silent-server-token-0123456789 }',
    '',
  ].join('\n');
  return {
    url,
    kubeconfig,
    connections: () => count,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
