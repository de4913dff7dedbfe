/**
 * A webhook authorizer for the real-server tier, as managed clusters run one beside RBAC: it allows the ServiceAccounts
 * of one namespace (by their group `system:serviceaccounts:<ns>`) every verb on one resource of one API group, and has
 * no opinion on anything else (no reason given, so kube-apiserver's own 403 messages stay as RBAC words them).
 *
 * Usage: node authz-webhook.mjs PORT NAMESPACE API_GROUP RESOURCE
 */
import { createServer } from 'node:http';

const [port, namespace, apiGroup, resource] = process.argv.slice(2);
const group = `system:serviceaccounts:${namespace}`;

/** Whether the review's subject and attributes are the one grant. */
function allowed(spec) {
  const attrs = spec?.resourceAttributes;
  // authorization.k8s.io/v1beta1 (what 1.20 sends by default) calls the list `group`; v1 calls it `groups`.
  const groups = spec?.groups ?? spec?.group;
  return (
    Array.isArray(groups) &&
    groups.includes(group) &&
    attrs?.group === apiGroup &&
    attrs?.resource === resource &&
    !attrs?.subresource
  );
}

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let review = {};
    try {
      review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // An unreadable review gets no opinion.
    }
    const yes = allowed(review.spec);
    const answer = {
      apiVersion: review.apiVersion ?? 'authorization.k8s.io/v1beta1',
      kind: 'SubjectAccessReview',
      status: yes ? { allowed: true, reason: `the webhook authorizer allows ${group}` } : { allowed: false },
    };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  });
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`authz webhook on ${port}\n`));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)));
