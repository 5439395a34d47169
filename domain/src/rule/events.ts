/**
 * Events of one rule's stream (`rule-{id}`, issue 31). `RuleApplied` changes every transaction
 * it lists in that one event (the transactions read model follows it), each with its values
 * before, so History shows what the rule changed.
 */
import type { DomainEvent } from '../shared/messages';
import type { RuleFields } from './fields';

export type RuleCreated = DomainEvent<
  'RuleCreated',
  RuleFields & { ruleId: string; userId: string; createdAt: string }
>;
export type RuleUpdated = DomainEvent<
  'RuleUpdated',
  {
    ruleId: string;
    userId: string;
    changes: Partial<RuleFields>;
    previous: RuleFields;
    updatedAt: string;
  }
>;
export type RuleDeleted = DomainEvent<
  'RuleDeleted',
  { ruleId: string; userId: string; previous: RuleFields; deletedAt: string }
>;

/** One transaction a rule changed: its category and payee after and before. */
export type RuleChange = Readonly<{
  transactionId: string;
  categoryId: string | null;
  payee: string | null;
  previousCategoryId: string | null;
  previousPayee: string | null;
}>;

export type RuleApplied = DomainEvent<
  'RuleApplied',
  { ruleId: string; userId: string; name: string; changes: RuleChange[]; appliedAt: string }
>;

export type RuleEvent = RuleCreated | RuleUpdated | RuleDeleted | RuleApplied;

export const RULE_EVENT_TYPES = [
  'RuleCreated',
  'RuleUpdated',
  'RuleDeleted',
  'RuleApplied',
] as const satisfies readonly RuleEvent['type'][];

export const ruleStreamId = (ruleId: string): string => `rule-${ruleId}`;
