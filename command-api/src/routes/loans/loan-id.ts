import { LOAN_NOT_FOUND, NotFoundError } from '@kosh/domain';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The loan a command names, unread: whether it is the caller's is the decider's to say (its 404)
 * from the one read of the stream the command makes. A malformed id is simply not found.
 */
export function loanIdOf(id: string): string {
  if (!UUID.test(id)) throw new NotFoundError(LOAN_NOT_FOUND);
  return id;
}
