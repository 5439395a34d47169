import { Button, Callout } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { api } from '../api/baseApi';
import { useAppDispatch } from '../app/store';
import { useGetAuditGrantsQuery } from './auditApi';
import { formatAsOfLimit, formatGrantDate, useAuditAccount, useAuditRefusals } from './auditMode';
import './audit.css';
import { useAuditNavigation } from './useAuditNavigation';

/** How often an open audit asks whether its grant still stands, between screens. */
const GRANT_CHECK_MS = 30_000;

/**
 * Audit mode's banner, on every signed-in screen: whose account this is, that it is read-only,
 * until when and as of when (as the grant set it), with the way out. The grant is looked up again
 * on every screen change, every 30 s and after any refused read: once it is no longer among those
 * received (revoked, expired) the banner says access has ended and the owner's cached figures go.
 */
export function AuditBanner() {
  const account = useAuditAccount();
  const refusals = useAuditRefusals();
  const [location] = useLocation();
  const dispatch = useAppDispatch();
  const { leave } = useAuditNavigation();
  const grants = useGetAuditGrantsQuery(undefined, {
    skip: !account,
    pollingInterval: GRANT_CHECK_MS,
    skipPollingIfUnfocused: true,
  });
  const { refetch } = grants;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new screen or a refusal is the cue to ask again
  useEffect(() => {
    if (account) void refetch();
  }, [location, refusals]);

  // Past its expiry the grant has ended whatever the last answer was; otherwise the list says.
  const ended =
    account !== null &&
    (Date.parse(account.expiresAt) <= Date.now() ||
      (grants.currentData !== undefined &&
        !grants.currentData.received.some((g) => g.id === account.grantId)));

  // The owner's figures read under the grant stay in the cache: drop them once, when it ends.
  const dropped = useRef<string | null>(null);
  useEffect(() => {
    if (!ended || !account || dropped.current === account.grantId) return;
    dropped.current = account.grantId;
    dispatch(api.util.resetApiState());
  }, [ended, account, dispatch]);

  if (!account) return null;
  const limit = account.asOfLimit ? `, as it stood at ${formatAsOfLimit(account.asOfLimit)}` : '';
  return (
    <div aria-live="polite">
      <Callout
        className="kosh-audit-banner"
        intent={ended ? 'danger' : 'warning'}
        icon={ended ? 'disable' : 'eye-open'}
        title={
          ended
            ? `Your access to ${account.ownerName}'s account has ended`
            : `Viewing ${account.ownerName}'s account, read-only (until ${formatGrantDate(account.expiresAt)})${limit}`
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
