import { Callout } from '@blueprintjs/core';
import { Link } from 'wouter';
import { useGetAuditGrantsQuery } from './auditApi';
import { useReadOnly } from './auditMode';
import './audit.css';

/**
 * On the dashboard: accounts shared with this user. The grant mail links to /audits, but a user
 * who signs in from it lands here (spec section 2), so the way there is shown.
 */
export function SharedWithYouNotice() {
  const auditing = useReadOnly();
  const grants = useGetAuditGrantsQuery(undefined, { skip: auditing });
  const owners = [...new Set((grants.data?.received ?? []).map((grant) => grant.ownerName))];
  if (auditing || owners.length === 0) return null;
  return (
    <Callout intent="primary" icon="eye-open" className="kosh-audit-banner">
      {owners.join(', ')} shared {owners.length === 1 ? 'their account' : 'their accounts'} with you,
      read-only. <Link href="/audits">Open Shared with you</Link>
    </Callout>
  );
}
