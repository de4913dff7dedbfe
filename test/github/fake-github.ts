/** A small stand-in for GitHub's REST and GraphQL APIs over HTTP on 127.0.0.1 (GitHub Enterprise Server paths). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface FakePull {
  state: 'open' | 'closed';
  merged_at?: string | null;
  closed_at?: string | null;
  /** Label names; a query that asks for labels gets them (none when unset). */
  labels?: string[];
}

/** A comment's author as GitHub records it. */
export interface FakeUser {
  login: string;
  type: 'User' | 'Bot';
}

/**
 * How the fake misbehaves: `hang` never answers; `rate-limited` answers GraphQL with a used-up point budget (200, no
 * reset header); `endless-link` gives every comment page a `rel="next"`; `huge` streams a comment page without end
 * (until the client hangs up); `swapped` answers each pull request as the next number (GraphQL node and REST body).
 */
export type Misbehaviour = 'hang' | 'rate-limited' | 'endless-link' | 'huge' | 'swapped';

/** What the fake answers and what it was asked. */
export class FakeGitHub {
  readonly pulls = new Map<number, FakePull>();
  readonly comments: { id: number; body: string; user: FakeUser }[] = [];
  /** Repository permissions by login (`write`, `read`…); a login not here is no collaborator (404). */
  readonly permissions = new Map<string, string>();
  /** Reactions added to issue comments and pull-request review comments, in order. */
  readonly reactions: { comment: number; content: string }[] = [];
  /**
   * Who the token belongs to. By default an installation token of the Actions app (the workflow's GITHUB_TOKEN):
   * `GET /user` refuses it, GraphQL `viewer` names the bot.
   */
  identity: FakeUser & { installation: boolean } = {
    login: 'github-actions[bot]',
    type: 'Bot',
    installation: true,
  };
  readonly requests: {
    method: string;
    path: string;
    authorized: boolean;
    at: number;
    /** Bytes of the answer's body written (a streamed answer counts what went out before the client hung up). */
    bytesOut: number;
  }[] = [];
  /** Misbehaviours by the requests (`METHOD /path`) they apply to. */
  readonly misbehave: { match: RegExp; how: Misbehaviour }[] = [];
  /** Added before every answer, like the round trip to a real GitHub. */
  delayMs = 0;
  /** `false`: the GraphQL endpoint answers 404, as where it is not offered. */
  graphql = true;
  private server: Server | undefined;

  constructor(private readonly token: string) {}

  /** Listen on a free port; resolves to the API base URL (what GITHUB_API_URL would be). */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const how = this.misbehave.find((m) => m.match.test(`${req.method} ${req.url}`))?.how;
      const record = {
        method: req.method ?? '',
        path: new URL(req.url ?? '/', 'http://x').pathname,
        authorized: req.headers.authorization === `token ${this.token}`,
        at: Date.now(),
        bytesOut: 0,
      };
      this.requests.push(record);
      void this.handle(req, record.authorized, how).then(async ([status, body, headers]) => {
        if (how === 'hang') return;
        if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
        res.writeHead(status, {
          'content-type': 'application/json',
          'x-ratelimit-remaining': '4999',
          ...headers,
        });
        if (how === 'huge') return void endless(res, (n) => (record.bytesOut += n));
        const text = JSON.stringify(body);
        record.bytesOut = Buffer.byteLength(text);
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/api/v3`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The pull requests a query names by alias (`prN: pullRequest(number: N)`), answered as GitHub does. */
  private answerGraphql(body: { query: string }, how: Misbehaviour | undefined): object {
    if (how === 'rate-limited')
      return { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for installation.' }] };
    const repository: Record<string, unknown> = {};
    const errors: unknown[] = [];
    for (const [, alias, asked] of body.query.matchAll(/(\w+): pullRequest\(number: (\d+)\)/g)) {
      const n = Number(asked) + (how === 'swapped' ? 1 : 0);
      const p = this.pulls.get(n);
      repository[alias!] = p ? graphqlNode(n, p, /labels\(first: \d+\)/.test(body.query)) : null;
      if (!p)
        errors.push({
          type: 'NOT_FOUND',
          path: ['repository', alias],
          message: `Could not resolve to a PullRequest with the number of ${n}.`,
        });
    }
    const resetAt = new Date(Date.now() + 3_600_000).toISOString();
    const data = { rateLimit: { cost: 1, remaining: 4999, resetAt }, repository };
    return errors.length ? { data, errors } : { data };
  }

  private async handle(
    req: IncomingMessage,
    authorized: boolean,
    how: Misbehaviour | undefined,
  ): Promise<[number, unknown, Record<string, string>?]> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!authorized) return [401, { message: 'Bad credentials' }];
    const { installation, ...user } = this.identity;
    if (url.pathname === '/api/v3/user' && req.method === 'GET')
      return installation ? [403, { message: 'Resource not accessible by integration' }] : [200, user];
    if (url.pathname === '/api/graphql' && req.method === 'POST') {
      const body = JSON.parse(await text(req)) as { query: string };
      if (/viewer\s*\{\s*login/.test(body.query ?? ''))
        return [200, { data: { viewer: { login: user.login } } }];
      if (!this.graphql) return [404, { message: 'Not Found' }];
      return [200, this.answerGraphql(body, how)];
    }
    const pull = /^\/api\/v3\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/.exec(url.pathname);
    if (pull && req.method === 'GET') {
      const n = Number(pull[1]) + (how === 'swapped' ? 1 : 0);
      const p = this.pulls.get(n);
      const labels = (p?.labels ?? []).map((name) => ({ name }));
      return p ? [200, { number: n, ...p, labels }] : [404, { message: 'Not Found' }];
    }
    const permission = /\/collaborators\/([^/]+)\/permission$/.exec(url.pathname);
    if (permission && req.method === 'GET') {
      const login = decodeURIComponent(permission[1]!);
      const p = this.permissions.get(login);
      return p ? [200, { permission: p, role_name: p, user: { login } }] : [404, { message: 'Not Found' }];
    }
    const reaction = /\/(?:issues|pulls)\/comments\/(\d+)\/reactions$/.exec(url.pathname);
    if (reaction && req.method === 'POST') {
      const { content } = JSON.parse(await text(req)) as { content: string };
      this.reactions.push({ comment: Number(reaction[1]), content });
      return [201, { id: this.reactions.length, content }];
    }
    if (/\/issues\/\d+\/comments$/.test(url.pathname)) {
      if (req.method === 'GET' && how === 'endless-link') {
        const next = Number(url.searchParams.get('page') ?? '1') + 1;
        const link = `<http://${req.headers.host}${url.pathname}?per_page=100&page=${next}>; rel="next"`;
        return [
          200,
          [{ id: next, body: 'another comment', user: { login: 'someone', type: 'User' } }],
          { link },
        ];
      }
      if (req.method === 'GET') return [200, this.comments];
      const body = JSON.parse(await text(req)) as { body: string };
      const comment = { id: this.comments.length + 1, body: body.body, user };
      this.comments.push(comment);
      return [201, comment];
    }
    const patch = /\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (patch && req.method === 'PATCH') {
      const comment = this.comments.find((c) => c.id === Number(patch[1]));
      if (!comment) return [404, { message: 'Not Found' }];
      comment.body = (JSON.parse(await text(req)) as { body: string }).body;
      return [200, comment];
    }
    return [404, { message: 'Not Found' }];
  }
}

function graphqlNode(n: number, p: FakePull, withLabels: boolean): object {
  const state = p.state === 'open' ? 'OPEN' : p.merged_at ? 'MERGED' : 'CLOSED';
  const url = `https://github.com/acme/shop/pull/${n}`;
  const node = { number: n, state, closedAt: p.closed_at ?? null, mergedAt: p.merged_at ?? null, url };
  if (!withLabels) return node;
  const names = p.labels ?? [];
  return { ...node, labels: { totalCount: names.length, nodes: names.map((name) => ({ name })) } };
}

/** A JSON array of comments that never ends: written as fast as the client reads, until it hangs up. */
function endless(res: ServerResponse, sent: (bytes: number) => void): void {
  const chunk = Buffer.from(`{"id":1,"body":"${'x'.repeat(64 * 1024)}","user":{"login":"someone"}},`);
  sent(1);
  res.write('[');
  const more = (): void => {
    while (!res.destroyed && res.write(chunk)) sent(chunk.length);
    if (!res.destroyed) {
      sent(chunk.length);
      res.once('drain', more);
    }
  };
  res.on('close', () => res.off('drain', more));
  more();
}

async function text(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
}
