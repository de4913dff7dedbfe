/** How a write the server answered without its effect is told: who put it back, and what to change. Pure. */
import type { PutBack, UndoneBy, WebhookSuspect } from '../model/force.js';

const webhookWords = (w: WebhookSuspect): string =>
  `mutating webhook ${w.name} (MutatingWebhookConfiguration ${w.configuration}, ${w.served}, failurePolicy ${w.failurePolicy}; ${w.alive})`;

/**
 * Who undid a write, in one sentence: the webhook(s) whose rules reach it, a field manager of `field`, or unknown and
 * why.
 */
export function undoneByWords(by: UndoneBy, field: string): string {
  if (by.kind === 'webhook') {
    const [first, ...more] = by.webhooks;
    const sure = first!.certain
      ? ''
      : ' (its rules reach this write; a selector of it could not be evaluated)';
    const also = more.length
      ? `; its rules are not the only ones: also ${more.map(webhookWords).join('; ')}`
      : '';
    return `put back by ${webhookWords(first!)}${sure}${also}`;
  }
  if (by.kind === 'manager')
    return `no mutating webhook's rules reach this write; managedFields name ${by.managers.join(', ')} as manager of ${field}, which may put it back`;
  return `who puts it back is unknown: ${by.why}`;
}

/** Who put it back, in one sentence: the webhook(s) whose rules reach the write, a field manager, or unknown and why. */
export function whoPutBack(p: PutBack): string {
  return undoneByWords(p.by, p.field);
}

/** The first webhook named, when a webhook put it back: the one to change. */
export function webhookOf(p: PutBack): WebhookSuspect | undefined {
  return p.by.kind === 'webhook' ? p.by.webhooks[0] : undefined;
}

/** Who put it back in a few words, for a line that points at the finding: `mutating webhook W (MutatingWebhookConfiguration C)`. */
export function whoInShort(p: PutBack): string {
  const w = webhookOf(p);
  if (w) return `mutating webhook ${w.name} (MutatingWebhookConfiguration ${w.configuration})`;
  return p.by.kind === 'manager'
    ? `${p.by.managers.join(', ')} (managedFields)`
    : 'something the run could not name';
}
