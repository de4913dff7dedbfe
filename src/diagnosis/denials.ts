/**
 * Admission denials read from the API server's answer: a webhook that answered "denied the request" or a
 * ValidatingAdmissionPolicy that denied it is up and refuses on purpose — not an outage. Pure.
 */

/** One deliberate refusal, in the engine's own words. */
export interface Denial {
  via: 'webhook' | 'validating-admission-policy';
  /** `Kyverno`, `Gatekeeper`, `ValidatingAdmissionPolicy`, or `admission webhook` for any other. */
  engine: string;
  webhook?: string;
  policy?: string;
  rule?: string;
  binding?: string;
  /** The object the denial names (`Widget/x/held`, `configmaps/keep`), when it names one. */
  object?: string;
  /** What the engine says, verbatim apart from YAML quoting. */
  message: string;
  /**
   * Set when the policy did not decide at all: it could not be configured or evaluated, and its failurePolicy Fail
   * turned that into a denial (`failed to configure binding: …`, `expression '…' resulted in error: …`). No change
   * of the object can help; what the policy or its binding lacks can.
   */
  cannotEvaluate?: string;
}

// kube-apiserver's validating admission dispatcher (plugin/policy/validating): a binding or policy it cannot set up,
// a CEL expression that errs, or the cost budget running out, under failurePolicy Fail.
const CANNOT_EVALUATE =
  /^(failed to configure (?:binding|policy): .*|expression '.*' resulted in error: .*|validation failed due to running out of cost budget.*)$/s;

/** Why a denial's message says the policy could not decide, or undefined when it decided. */
export function cannotEvaluate(message: string): string | undefined {
  const m = CANNOT_EVALUATE.exec(message.trim());
  return m ? m[1] : undefined;
}

// kube-apiserver (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go): current servers
// prefix `<resource> "<name>" is forbidden: ` (or `Internal error occurred: ` for a 500); 1.20 sends neither.
const START =
  /(?:([a-z0-9][-a-z0-9.]*) "([^"]*)" is forbidden: )?(?:admission webhook "([^"]+)" denied the request|ValidatingAdmissionPolicy '([^']+)'(?: with binding '([^']+)')? denied request)/;

/** Whether the text holds a deliberate denial (a webhook's or a policy's). */
export function hasDenial(text: string): boolean {
  return START.test(text);
}

/** Every denial in `text`, in order; the message of one runs to the start of the next. */
export function parseDenials(text: string): Denial[] {
  const starts = [...text.matchAll(new RegExp(START.source, 'g'))];
  return starts.map((m, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.index : text.length;
    const rest = text
      .slice(m.index + m[0].length, end)
      .replace(/^: ?/, '')
      .replace(/,\s*$/, '');
    const object = m[1] ? `${m[1]}/${m[2] ?? ''}` : undefined;
    if (m[4]) {
      const why = cannotEvaluate(rest);
      return {
        via: 'validating-admission-policy' as const,
        engine: 'ValidatingAdmissionPolicy',
        policy: m[4],
        ...(m[5] ? { binding: m[5] } : {}),
        ...(object ? { object } : {}),
        message: rest.trim(),
        ...(why ? { cannotEvaluate: why } : {}),
      };
    }
    const webhook = m[3]!;
    const body = rest.trim() === '' || /^without explanation/.test(rest.trim()) ? '' : rest;
    return { via: 'webhook' as const, webhook, ...(object ? { object } : {}), ...byEngine(webhook, body) };
  });
}

function byEngine(
  webhook: string,
  body: string,
): Pick<Denial, 'engine' | 'policy' | 'rule' | 'object' | 'message'> {
  if (/kyverno/i.test(webhook)) return kyverno(body);
  if (/gatekeeper/i.test(webhook)) return gatekeeper(body);
  return { engine: 'admission webhook', message: body.trim() || '(no explanation given)' };
}

/** Kyverno: `resource Kind/ns/name was blocked due to the following policies` then `policy:` / `  rule: 'message'`. */
function kyverno(body: string): Pick<Denial, 'engine' | 'policy' | 'rule' | 'object' | 'message'> {
  const head = /resource (\S+) was blocked due to the following polic(?:y|ies):?\s*/.exec(body);
  const tail = head ? body.slice(head.index + head[0].length) : body;
  const m = /^\s*([A-Za-z0-9][-A-Za-z0-9_.]*):\s+([-A-Za-z0-9_.[\]]+):\s+([\s\S]*)$/.exec(tail);
  if (!m) return { engine: 'Kyverno', ...(head ? { object: head[1] } : {}), message: body.trim() };
  // The rule's text runs to the next policy or rule line (the first one is what the user needs).
  const first = m[3]!.split(/\n(?=\S| {2}\S)/)[0]!;
  return {
    engine: 'Kyverno',
    policy: m[1],
    rule: m[2],
    ...(head ? { object: head[1] } : {}),
    message: unquote(first.replace(/\s*\n\s*/g, ' ').trim()),
  };
}

/** Gatekeeper: `[constraint] message` (older releases: `[denied by constraint] message`), one a line. */
function gatekeeper(body: string): Pick<Denial, 'engine' | 'policy' | 'message'> {
  const m = /^\s*\[(?:denied by )?([^\]]+)\]\s*([\s\S]*)$/.exec(body);
  if (!m) return { engine: 'Gatekeeper', message: body.trim() };
  return { engine: 'Gatekeeper', policy: m[1], message: m[2]!.split('\n')[0]!.trim() };
}

/** A YAML single-quoted scalar as Kyverno prints it: `'it''s'` → `it's`. */
function unquote(text: string): string {
  return /^'.*'$/s.test(text) ? text.slice(1, -1).replaceAll("''", "'") : text;
}

/** `Kyverno policy protect-widgets (rule block-delete)`, `ValidatingAdmissionPolicy p (binding b)`, `webhook w`. */
export function denialSource(d: Denial): string {
  if (d.via === 'validating-admission-policy')
    return `ValidatingAdmissionPolicy ${d.policy ?? ''}${d.binding ? ` (binding ${d.binding})` : ''}`;
  if (d.policy) return `${d.engine} policy ${d.policy}${d.rule ? ` (rule ${d.rule})` : ''}`;
  return `admission webhook ${d.webhook ?? ''}`;
}
