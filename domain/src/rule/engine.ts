/**
 * `@kosh/domain/rule-engine`: rule patterns and matching, on the RE2 engine (re2js). Apart from
 * the package's main entry so the web, which never matches, does not ship the engine.
 */
import type { FieldError } from '../shared/errors';
import type { RuleFields } from './fields';
import { patternError } from './pattern';
import { parseRule, type RuleInput } from './validate';

export * from './match';
export * from './pattern';

/** `parseRule` with the pattern judged by the engine. */
export function parseRuleChecked(
  input: RuleInput,
): { ok: true; value: RuleFields } | { ok: false; errors: FieldError[] } {
  return parseRule(input, patternError);
}
