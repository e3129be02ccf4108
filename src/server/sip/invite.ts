/*
 * An INVITE outside any dialog: `sip:honeypot@…` with X-Service-Key is the keyed honeypot entry; any
 * other user goes to the SIP firewall when the Request-URI (or To) names a registered domain.
 */
import { parseUri } from 'sip';
import { metrics } from '../../observability/metrics.js';
import type { Refusal } from '../../session/admission.js';
import type { Domain } from '../../store/types.js';
import { callerNumber, headerUri } from '../../transport/sip/caller.js';
import { parseCSeq, responseTo, type SipRequest } from '../../transport/sip/message.js';
import type { ServerTransaction } from '../../transport/sip/transactions.js';
import { answer } from './answer.js';
import { Call } from './call.js';
import { HONEYPOT_USER, type SipContext } from './context.js';
import { domainCandidates, firewallAction } from './firewall.js';
import { sipRefusal, type SipRefusal } from './refusals.js';

type Refuse = (r: SipRefusal, headers?: Record<string, string>) => void;

export async function invite(ctx: SipContext, txn: ServerTransaction, req: SipRequest): Promise<void> {
  txn.send(responseTo(req, 100));
  const call = new Call(req, txn.flow);
  if (ctx.calls.has(call.key)) return txn.send(responseTo(req, 482, { reason: 'Loop Detected' }));
  ctx.calls.set(call.key, call);
  call.invites.set(parseCSeq(req.headers.get('cseq'))!.seq, txn);
  const refuse: Refuse = (r, headers = r.headers ?? {}) => {
    ctx.calls.delete(call.key);
    if (r.status === 503) metrics.rejected.inc({ status: '503', entry: 'sip' });
    if (txn.pending) txn.send(responseTo(req, r.status, { reason: r.reason, toTag: call.localTag, headers }));
  };
  try {
    if (!ctx.accepting) return refuse({ status: 503, reason: 'Service Unavailable (node shutting down)' });
    const uri = parseUri(req.uri);
    if (!uri) return refuse({ status: 416, reason: 'Unsupported URI Scheme' });
    if (uri.user?.toLowerCase() === HONEYPOT_USER) return await honeypotEntry(ctx, txn, req, call, refuse);
    const toHost = parseUri(headerUri(req.headers.get('to')) ?? '')?.host;
    for (const id of domainCandidates(uri.host, toHost)) {
      const domain = await ctx.services.store.domains.get(id);
      if (domain) return await firewall(ctx, txn, req, call, domain, refuse);
    }
    return refuse({ status: 404, reason: 'Not Found' });
  } catch (err) {
    ctx.log.error({ err, callId: call.callId }, 'INVITE failed');
    call.onEnd?.('local');
    refuse({ status: 500, reason: 'Server Internal Error' });
  }
}

/** The keyed entry: X-Service-Key, and the caller's X-Persona, X-Webhook and X-Report. */
async function honeypotEntry(
  ctx: SipContext,
  txn: ServerTransaction,
  req: SipRequest,
  call: Call,
  refuse: Refuse,
): Promise<void> {
  const admitted = await ctx.admission.admit(
    'honeypot',
    { presented: req.headers.get('x-service-key')?.trim() },
    {
      persona: req.headers.get('x-persona'),
      webhook: req.headers.get('x-webhook'),
      report: req.headers.get('x-report'),
    },
  );
  if (!admitted.ok) return refuse(sipRefusal(admitted.refusal));
  const ticket = admitted.value;
  const options = ticket.options();
  if (!options.ok) {
    ticket.release();
    return refuse(sipRefusal(options.refusal));
  }
  const refused = await answer(ctx, txn, req, call, ticket, options.value);
  if (refused) refuse('offer' in refused ? refused.offer : sipRefusal(refused.admission));
}

async function firewall(
  ctx: SipContext,
  txn: ServerTransaction,
  req: SipRequest,
  call: Call,
  domain: Domain,
  refuse: Refuse,
): Promise<void> {
  const caller = callerNumber(req);
  const filed = caller ? (await ctx.services.store.complaints.status(caller)).reported : false;
  const decision = firewallAction(domain, filed);
  ctx.log.info({ domain: domain.id, filed, action: decision.action, callId: call.callId }, 'sip firewall');
  switch (decision.action) {
    case 'forward':
      return refuse({ status: 302, reason: 'Moved Temporarily' }, { contact: `<${decision.uri}>` });
    case 'unavailable':
      return refuse({ status: 480, reason: 'Temporarily Unavailable (no forward_uri for this domain)' });
    case 'decline':
      return refuse({ status: 603, reason: 'Decline' });
    case 'honeypot': {
      const refused = await handOver(ctx, txn, req, call, domain);
      if (refused) refuse(refused);
      return;
    }
  }
}

/**
 * A filed caller handed to a persona, as the domain's key. One the honeypot cannot take (off, full, no
 * credits) is still declined; a malformed offer is the caller's own fault and is told so (400/488 naming
 * the field), as on the keyed entry. Null once answered.
 */
async function handOver(
  ctx: SipContext,
  txn: ServerTransaction,
  req: SipRequest,
  call: Call,
  domain: Domain,
): Promise<SipRefusal | null> {
  const decline = (why: Refusal | string): SipRefusal => {
    ctx.log.info({ domain: domain.id, callId: call.callId, why }, 'sip firewall: the honeypot cannot take the call');
    return { status: 603, reason: 'Decline' };
  };
  const key = (await ctx.services.store.keys.list()).find((k) => k.id === domain.key_id);
  if (!key) return decline('the domain key is gone');
  const admitted = await ctx.admission.admit(
    'honeypot',
    { owner: key, signingKey: domain.webhook_secret ?? '' },
    { persona: domain.persona, webhook: domain.webhook_secret ? domain.webhook : undefined, report: 'true' },
  );
  if (!admitted.ok) return decline(admitted.refusal);
  const ticket = admitted.value;
  // The domain's persona was checked when the domain was saved; one removed since gives a random persona.
  let options = ticket.options();
  if (!options.ok) options = ticket.options({ persona: '' });
  if (!options.ok) {
    ticket.release();
    return decline(options.refusal);
  }
  const refused = await answer(ctx, txn, req, call, ticket, options.value);
  if (!refused) return null;
  return 'offer' in refused ? refused.offer : decline(refused.admission);
}
