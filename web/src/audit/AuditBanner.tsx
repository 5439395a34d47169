import { Button, Callout } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useLazyGetAuditGrantsQuery } from './auditApi';
import { formatGrantDate, useAuditAccount, useAuditRefusals } from './auditMode';
import './audit.css';
import { useAuditNavigation } from './useAuditNavigation';

/**
 * Audit mode's banner, on every signed-in screen: whose account this is, that it is read-only and
 * until when, with the way out. When the server refuses a read, the grant is looked up again: if
 * it is no longer among those received (revoked, expired), the banner says access has ended.
 */
export function AuditBanner() {
  const account = useAuditAccount();
  const refusals = useAuditRefusals();
  const { leave } = useAuditNavigation();
  const [check, checked] = useLazyGetAuditGrantsQuery();
  useEffect(() => {
    if (refusals > 0) void check(undefined, false);
  }, [refusals, check]);
  if (!account) return null;
  // Past its expiry the grant has ended whatever the last answer was; otherwise a refusal asks.
  const ended =
    Date.parse(account.expiresAt) <= Date.now() ||
    (refusals > 0 &&
      checked.data !== undefined &&
      !checked.data.received.some((g) => g.id === account.grantId));
  const limit = account.asOfLimit ? `, as of ${formatGrantDate(account.asOfLimit)}` : '';
  return (
    <div aria-live="polite">
      <Callout
        className="kosh-audit-banner"
        intent={ended ? 'danger' : 'warning'}
        icon={ended ? 'disable' : 'eye-open'}
        title={
          ended
            ? `Your access to ${account.ownerName}'s account has ended`
            : `Viewing ${account.ownerName}'s account, read-only (until ${formatGrantDate(account.expiresAt)}${limit})`
        }
      >
        {ended ? (
          <p>The owner revoked the grant or it expired. Leave to return to your own account.</p>
        ) : null}
        <Button icon="log-out" text="Leave" intent={ended ? 'primary' : 'none'} onClick={leave} />
      </Callout>
    </div>
  );
}
