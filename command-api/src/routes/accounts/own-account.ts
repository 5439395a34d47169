import { accountDecider, accountStreamId, isUuid } from '@kosh/domain';
import { loadAggregate } from '../../commands/handle';
import type { Platform } from '../../platform';

/**
 * True when `accountId` is one of the user's own open accounts. Read from the account's stream,
 * not the read model: an account just opened can take a transaction before its list caught up.
 */
export async function ownsOpenAccount(
  platform: Platform,
  userId: string,
  accountId: string,
): Promise<boolean> {
  if (!isUuid(accountId)) return false;
  const { state } = await loadAggregate(platform, accountStreamId(accountId.toLowerCase()), accountDecider);
  return state.status === 'open' && state.userId === userId;
}
