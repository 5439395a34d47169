import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError } from '../shared/errors';
import { changedKeys, pickFields, withAbsent } from '../shared/field-table';
import { assertNever, type Command } from '../shared/messages';
import type { RuleChange, RuleEvent } from './events';
import { RULE_FIELDS, type RuleFields } from './fields';
import { RULE_MESSAGES } from './validate';

export type RuleState =
  | { status: 'none' }
  | { status: 'live'; ruleId: string; userId: string; fields: RuleFields }
  | { status: 'deleted'; ruleId: string; userId: string };

export const initialRuleState = (): RuleState => ({ status: 'none' });

export function evolveRule(state: RuleState, event: RuleEvent): RuleState {
  const { type, data } = event;
  switch (type) {
    case 'RuleCreated':
      return {
        status: 'live',
        ruleId: data.ruleId,
        userId: data.userId,
        fields: pickFields(RULE_FIELDS, withAbsent(RULE_FIELDS, data)),
      };
    case 'RuleUpdated':
      return state.status === 'live' ? { ...state, fields: { ...state.fields, ...data.changes } } : state;
    case 'RuleDeleted':
      return { status: 'deleted', ruleId: data.ruleId, userId: data.userId };
    case 'RuleApplied':
      return state;
    default:
      return assertNever(type);
  }
}

/** Fields come validated (`parseRule`; the route checks the account and category are the user's). */
type Ids = { ruleId: string; userId: string; now: string };
export type CreateRule = Command<'CreateRule', RuleFields & Ids>;
export type UpdateRule = Command<'UpdateRule', RuleFields & Ids>;
export type DeleteRule = Command<'DeleteRule', Ids>;
/** `changes`: what the rule changes among the user's transactions, found by the route (its preview). */
export type ApplyRule = Command<'ApplyRule', Ids & { changes: readonly RuleChange[] }>;
export type RuleCommand = CreateRule | UpdateRule | DeleteRule | ApplyRule;

function owned(state: RuleState, userId: string) {
  if (state.status !== 'live' || state.userId !== userId) throw new NotFoundError(RULE_MESSAGES.notFound);
  return state;
}

export function decideRule(command: RuleCommand, state: RuleState): RuleEvent[] {
  const { type, data } = command;
  const ids = { ruleId: data.ruleId, userId: data.userId };
  switch (type) {
    case 'CreateRule':
      if (state.status !== 'none') throw new ConflictError('Rule already exists');
      return [
        { type: 'RuleCreated', data: { ...ids, ...pickFields(RULE_FIELDS, data), createdAt: data.now } },
      ];
    case 'UpdateRule': {
      const current = owned(state, data.userId);
      const next = pickFields(RULE_FIELDS, data);
      const changed = changedKeys(RULE_FIELDS, current.fields, next);
      if (changed.length === 0) return [];
      const changes: Partial<RuleFields> = Object.fromEntries(changed.map((key) => [key, next[key]]));
      return [
        { type: 'RuleUpdated', data: { ...ids, changes, previous: current.fields, updatedAt: data.now } },
      ];
    }
    case 'DeleteRule': {
      const current = owned(state, data.userId);
      return [{ type: 'RuleDeleted', data: { ...ids, previous: current.fields, deletedAt: data.now } }];
    }
    case 'ApplyRule': {
      const current = owned(state, data.userId);
      if (data.changes.length === 0) return [];
      return [
        {
          type: 'RuleApplied',
          data: { ...ids, name: current.fields.name, changes: [...data.changes], appliedAt: data.now },
        },
      ];
    }
    default:
      return assertNever(type);
  }
}

export const ruleDecider: Decider<RuleState, RuleCommand, RuleEvent> = {
  initialState: initialRuleState,
  evolve: evolveRule,
  decide: decideRule,
};
