import { type Static, Type } from 'typebox';
import { Loose } from './request';

/**
 * Statement imports (issue 30), wire names in snake_case. The upload itself is multipart
 * (`file`, `account_id`, optional `preset`, optional `mapping` as JSON text). Body fields are
 * loose at the schema level so a bad value gets its own per-field message.
 */
export const ImportUpdateBody = Type.Object({
  preset: Loose('A preset id (hdfc, icici, sbi, axis, kotak), or null to detect it again'),
  mapping: Type.Optional(
    Type.Unknown({
      description:
        'A column mapping { date, narration, debit, credit | amount, dr_cr, balance, … } by header text, or null',
    }),
  ),
  decisions: Type.Optional(Type.Unknown({ description: '[{ index, decision: import | skip, match_emi? }]' })),
});
export type ImportUpdateBody = Static<typeof ImportUpdateBody>;

export const ImportCommitBody = Type.Object({
  confirm_balance_mismatch: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      description: 'true to record a statement whose running balance disagrees',
    }),
  ),
  skip_error_rows: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      description: 'true to leave out the rows that could not be read',
    }),
  ),
});
export type ImportCommitBody = Static<typeof ImportCommitBody>;

export const ImportRowsQuery = Type.Object({
  status: Type.Optional(Type.String({ description: 'new, duplicate, possible_duplicate, emi_match, error' })),
  page: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String()),
});
export type ImportRowsQuery = Static<typeof ImportRowsQuery>;

/**
 * The answers of /api/imports, in the envelope (`{ success: true, message?, data }`): described in
 * words here (README "Imports") and passed through as built by the route.
 */
export const ImportAnswer = Type.Unknown({ description: 'success envelope: { success, message?, data }' });
