import { useLocation } from 'wouter';
import { api } from '../api/baseApi';
import { useAppDispatch } from '../app/store';
import type { ReceivedGrant } from './auditApi';
import { setAuditAccount } from './auditMode';

/**
 * Entering and leaving audit mode. Either way the cached answers belong to the other account, so
 * the RTK Query cache is dropped before the next screen asks.
 */
export function useAuditNavigation() {
  const dispatch = useAppDispatch();
  const [, navigate] = useLocation();
  return {
    open(grant: ReceivedGrant) {
      setAuditAccount({
        grantId: grant.id,
        ownerUserId: grant.ownerUserId,
        ownerName: grant.ownerName,
        expiresAt: grant.expiresAt,
        asOfLimit: grant.asOfLimit,
      });
      dispatch(api.util.resetApiState());
      navigate('/ledger');
    },
    leave() {
      setAuditAccount(null);
      dispatch(api.util.resetApiState());
      navigate('/audits');
    },
  };
}
