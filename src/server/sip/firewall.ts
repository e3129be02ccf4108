/*
 * The SIP firewall's decision for a call to a registered domain: a caller filed as a scammer is
 * declined (603) or handed to a persona, by the domain's `spam_action`; any other call is redirected
 * (302) to the domain's forward_uri, or answered 480 when the domain has none.
 */
import type { Domain } from '../../store/types.js';

export type FirewallAction =
  { action: 'decline' } | { action: 'honeypot' } | { action: 'forward'; uri: string } | { action: 'unavailable' };

export function firewallAction(domain: Pick<Domain, 'spam_action' | 'forward_uri'>, filed: boolean): FirewallAction {
  if (filed) return { action: domain.spam_action === 'honeypot' ? 'honeypot' : 'decline' };
  return domain.forward_uri ? { action: 'forward', uri: domain.forward_uri } : { action: 'unavailable' };
}

/** The domain an INVITE names: the Request-URI host, else the To URI host (a trunk may dial by IP). */
export function domainCandidates(requestUriHost: string | undefined, toHost: string | undefined): string[] {
  const out: string[] = [];
  for (const h of [requestUriHost, toHost]) {
    const id = h?.toLowerCase().replace(/\.$/, '');
    if (id && /^[a-z0-9.-]{1,253}$/.test(id) && !out.includes(id)) out.push(id);
  }
  return out;
}
