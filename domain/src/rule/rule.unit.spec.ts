import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { ruleDecider } from './decide';
import type { RuleFields } from './fields';
import { ruleChangeOf, ruleMatcher } from './match';
import { hasNestedRepetition, PATTERN_MESSAGES, patternError } from './pattern';
import { parseRule as parseWith, RULE_MESSAGES, type RuleInput } from './validate';

const parseRule = (input: RuleInput) => parseWith(input, patternError);

const category = '3f1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f30';
const userId = 'b7e1a4c2-5f6d-4e3a-8b9c-0d1e2f3a4b5c';
const ruleId = '4a1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f31';
const now = '2026-01-01T00:00:00.000Z';

describe('rule patterns', () => {
  it('refuses nested repetition, the shapes that run away in a backtracking engine', () => {
    for (const p of ['(a+)+', '(a*)*$', '(\\w+\\s?)*$', '((ab)+)+', '(a|b+){2,}', '(x+x+)+y', '([a-z]+)*'])
      expect(hasNestedRepetition(p), p).toBe(true);
    for (const p of [
      'swiggy|zomato',
      'a+b+',
      '(ab)+',
      '[(+]+',
      '\\(a+\\)+',
      'upi/\\d+/',
      '(a+)?',
      '(ab){2}c*',
    ])
      expect(hasNestedRepetition(p), p).toBe(false);
  });
  it('says which problem a pattern has, invalid first', () => {
    expect(patternError('(a')).toBe(PATTERN_MESSAGES.invalid);
    expect(patternError('(?=a)b')).toBe(PATTERN_MESSAGES.invalid);
    expect(patternError('(a)\\1')).toBe(PATTERN_MESSAGES.invalid);
    expect(patternError('(a+)+$')).toBe(PATTERN_MESSAGES.runaway);
    expect(patternError('x'.repeat(201))).toBe(PATTERN_MESSAGES.tooLong);
    expect(patternError('^UPI/.*swiggy')).toBeNull();
  });
  it('matches in linear time even what would run away elsewhere (RE2)', () => {
    const started = performance.now();
    const matches = ruleMatcher({ ...rule(), matchText: null, matchPattern: 'a+a+b' })({
      ...subject,
      notes: 'a'.repeat(20_000),
    });
    expect(matches).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

const rule = (over: Partial<RuleFields> = {}): RuleFields => ({
  name: 'Swiggy',
  matchText: 'swiggy',
  matchPattern: null,
  amountMin: null,
  amountMax: null,
  accountId: null,
  transactionType: null,
  categoryId: category,
  payee: 'Swiggy',
  ...over,
});
const subject = {
  notes: 'Dinner',
  rawNarration: 'UPI/SWIGGY/123',
  amount: 50_000,
  accountId: null,
  transactionType: 'D' as const,
};

describe('rule input and matching', () => {
  it('reads the wire into paise and names each bad field', () => {
    expect(
      parseRule({
        name: ' Food ',
        match_text: 'swiggy',
        amount_min: '100',
        amount_max: 900.5,
        category_id: category,
      }),
    ).toEqual({
      ok: true,
      value: rule({ name: 'Food', amountMin: 10_000, amountMax: 90_050, payee: null }),
    });
    expect(
      parseRule({ name: '', match_pattern: '(a+)+', amount_min: 10, amount_max: 5, transaction_type: 'X' }),
    ).toEqual({
      ok: false,
      errors: [
        { field: 'name', message: RULE_MESSAGES.nameRequired },
        { field: 'match_pattern', message: PATTERN_MESSAGES.runaway },
        { field: 'amount_max', message: RULE_MESSAGES.amountOrder },
        { field: 'transaction_type', message: RULE_MESSAGES.typeInvalid },
        { field: 'category_id', message: RULE_MESSAGES.noAction },
      ],
    });
    expect(parseRule({ name: 'x', payee: 'p' })).toMatchObject({
      ok: false,
      errors: [{ field: 'match_text', message: RULE_MESSAGES.noCondition }],
    });
  });
  it('matches notes or raw narration, case aside, within every condition set', () => {
    expect(ruleMatcher(rule())(subject)).toBe(true);
    expect(ruleMatcher(rule({ matchText: 'dinner' }))(subject)).toBe(true);
    expect(ruleMatcher(rule({ matchText: null, matchPattern: '^upi/swig+y/\\d+$' }))(subject)).toBe(true);
    expect(ruleMatcher(rule({ transactionType: 'C' }))(subject)).toBe(false);
    expect(ruleMatcher(rule({ amountMin: 50_001 }))(subject)).toBe(false);
    expect(ruleMatcher(rule({ amountMax: 50_000 }))(subject)).toBe(true);
    expect(ruleMatcher(rule({ accountId: category }))(subject)).toBe(false);
  });
  it('changes only what differs', () => {
    expect(ruleChangeOf(rule(), { id: 't', categoryId: category, payee: 'Swiggy' })).toBeNull();
    expect(ruleChangeOf(rule({ payee: null }), { id: 't', categoryId: null, payee: 'Kept' })).toEqual({
      transactionId: 't',
      categoryId: category,
      payee: 'Kept',
      previousCategoryId: null,
      previousPayee: 'Kept',
    });
  });
});

describe('rule decider', () => {
  const given = DeciderSpecification.for(ruleDecider);
  const created = { type: 'RuleCreated' as const, data: { ruleId, userId, ...rule(), createdAt: now } };
  it('creates, edits what changed, applies in one event, and is 404 to anyone else', () => {
    given([])
      .when({ type: 'CreateRule', data: { ...rule(), ruleId, userId, now } })
      .then([created]);
    given([created])
      .when({ type: 'UpdateRule', data: { ...rule(), ruleId, userId, now } })
      .then([]);
    given([created])
      .when({ type: 'UpdateRule', data: { ...rule({ payee: 'Zomato' }), ruleId, userId, now } })
      .then([
        {
          type: 'RuleUpdated',
          data: { ruleId, userId, changes: { payee: 'Zomato' }, previous: rule(), updatedAt: now },
        },
      ]);
    const change = {
      transactionId: 't',
      categoryId: category,
      payee: 'Swiggy',
      previousCategoryId: null,
      previousPayee: null,
    };
    given([created])
      .when({ type: 'ApplyRule', data: { ruleId, userId, now, changes: [change] } })
      .then([
        { type: 'RuleApplied', data: { ruleId, userId, name: 'Swiggy', changes: [change], appliedAt: now } },
      ]);
    given([created])
      .when({ type: 'DeleteRule', data: { ruleId, userId: 'intruder', now } })
      .thenThrows(NotFoundError);
    given([])
      .when({ type: 'ApplyRule', data: { ruleId, userId, now, changes: [] } })
      .thenThrows(NotFoundError);
  });
});
