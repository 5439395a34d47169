/**
 * What the loan routes (`index.ts`) hand to the change and payment routes (`changes.ts`,
 * `payments.ts`): its own file so those import it without importing the routes that call them.
 */
import type { ExistingLoan, LoanCommand, LoanState, LoanStreamEvent } from '@kosh/domain';
import type { LoanView } from '@kosh/projections';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandOutcome, commandRoutes } from '../../commands/route';
import type { toWireSchedule } from './wire';

/** What a loan command did: the loan's new state and events, with the command (its loan id). */
export type LoanOutcome = CommandOutcome<LoanState, LoanCommand, LoanStreamEvent>;

/** An answer of a loan command route, from what the command did. */
type LoanAnswer<Body> = (result: LoanOutcome, request: FastifyRequest, reply: FastifyReply) => Promise<Body>;

/** What the loan routes share with these. */
export type LoanRouteKit = {
  ownLoan(userId: string, id: string): Promise<LoanView>;
  /** The caller's live loan from one read of its stream, or 404 (for answers that record nothing). */
  ownLoanState(userId: string, id: string): Promise<ExistingLoan>;
  /** Declares a command route on the loan's stream. */
  loanCommand: ReturnType<typeof commandRoutes<LoanState, LoanCommand, LoanStreamEvent>>;
  /** The answer of a command that makes a new schedule version: that schedule. */
  answerSchedule(
    message: string | ((result: LoanOutcome) => string),
  ): LoanAnswer<{ success: true; message: string; data: ReturnType<typeof toWireSchedule> }>;
  today(): string;
};
