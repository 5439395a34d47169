import type { RULE_FIELDS, WireNames, WireOf } from '@kosh/domain';
import { type Static, Type } from 'typebox';
import { MessageResponse, success } from './envelope';
import { IdParams, Loose } from './request';

/**
 * Categorisation rules (issue 31): "notes or raw narration contains … (or matches a pattern),
 * amount between …, account …, type … → category, payee". Body fields are loose at the schema
 * level so a bad value gets its own per-field message (domain/src/rule/validate.ts).
 */
export const RuleBody = Type.Object({
  name: Loose('At most 60 characters'),
  match_text: Loose('Text the notes or the raw narration contain (any case), at most 100 characters'),
  match_pattern: Loose(
    'A pattern (RE2 syntax, any case) the notes or the raw narration match, at most 200 characters; a repeated group holding a repetition, as in (a+)+, is refused',
  ),
  amount_min: Loose('Rupees: the amount is at least this'),
  amount_max: Loose('Rupees: the amount is at most this'),
  account_id: Loose('One of your accounts'),
  transaction_type: Loose("'C' or 'D'"),
  category_id: Loose('The category to set (one of yours)'),
  payee: Loose('The payee to set, at most 100 characters'),
});
export type RuleBody = Static<typeof RuleBody>;
RuleBody.properties satisfies Record<WireNames<typeof RULE_FIELDS>, unknown>;

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const WireRule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  match_text: NullableString,
  match_pattern: NullableString,
  amount_min: NullableNumber,
  amount_max: NullableNumber,
  account_id: NullableString,
  transaction_type: Type.Union([Type.Unsafe<'C' | 'D'>({ type: 'string', enum: ['C', 'D'] }), Type.Null()]),
  category_id: NullableString,
  payee: NullableString,
  applied_count: Type.Integer(),
  changed_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type WireRule = Static<typeof WireRule>;
({}) as WireOf<typeof RULE_FIELDS> satisfies Pick<WireRule, WireNames<typeof RULE_FIELDS>>;

export const RuleParams = IdParams;
export const RuleListResponse = success(Type.Object({ rules: Type.Array(WireRule) }));
export type RuleListResponse = Static<typeof RuleListResponse>;
export const RuleResponse = success(Type.Object({ rule: WireRule }));
export type RuleResponse = Static<typeof RuleResponse>;
export const RuleDeletedResponse = MessageResponse;

export const RuleApplyBody = Type.Union([
  Type.Object({ dry_run: Type.Optional(Type.Boolean({ description: 'true: only say what would change' })) }),
  Type.Null(),
]);

/** One transaction the rule changes (or would): its category and payee before and after. */
export const WireRuleChange = Type.Object({
  transaction_id: Type.String(),
  transaction_date: Type.String(),
  notes: Type.String(),
  amount: Type.Number(),
  transaction_type: Type.Unsafe<'C' | 'D'>({ type: 'string', enum: ['C', 'D'] }),
  category_id: NullableString,
  payee: NullableString,
  previous_category_id: NullableString,
  previous_payee: NullableString,
});
export type WireRuleChange = Static<typeof WireRuleChange>;

export const RuleApplyResponse = success(
  Type.Object({
    dry_run: Type.Boolean(),
    /** How many transactions change (or would). */
    changed: Type.Integer(),
    changes: Type.Array(WireRuleChange),
  }),
);
export type RuleApplyResponse = Static<typeof RuleApplyResponse>;
