import { type Static, Type } from 'typebox';
import { success } from './envelope';
import { WireScheduleRow } from './loans';
import { QueryText } from './request';

export const HistoryQuery = Type.Object({
  stream: QueryText('loan:{id}, transaction:{id} or profile (default: every stream of yours)'),
  type: QueryText('An event type, e.g. LoanUpdated'),
  from: QueryText('YYYY-MM-DD (start of that day, India time) or ISO date-time, inclusive'),
  to: QueryText('YYYY-MM-DD (end of that day, India time) or ISO date-time, inclusive'),
  cursor: QueryText('next_cursor of the previous page'),
  limit: QueryText('Entries per page, 1 to 100 (default 20)'),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

export const ItemHistoryQuery = Type.Object({
  cursor: QueryText('next_cursor of the previous page'),
  limit: QueryText('Entries per page, 1 to 100 (default 20)'),
});
export type ItemHistoryQuery = Static<typeof ItemHistoryQuery>;

const Value = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const WireTimelineEntry = Type.Object({
  position: Type.String({ description: "The event's position in the log (newest first)" }),
  recorded_at: Type.String({ description: 'ISO-8601 UTC: when the command was handled' }),
  stream: Type.String({ description: 'loan:{id}, transaction:{id}, profile, bank:{id} or loan_type:{id}' }),
  type: Type.String(),
  summary: Type.String(),
  changes: Type.Array(
    Type.Object({
      field: Type.String({ description: 'The name the screens give the field' }),
      from: Value,
      to: Value,
    }),
    { description: 'Money in rupees' },
  ),
  correlation_id: Type.String({ description: 'The request that recorded it (X-Request-Id)' }),
});

export type WireTimelineEntry = Static<typeof WireTimelineEntry>;

export const HistoryResponse = success(
  Type.Object({
    entries: Type.Array(WireTimelineEntry),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  }),
);
export type HistoryResponse = Static<typeof HistoryResponse>;

export const PublicKeyResponse = success(
  Type.Object({
    algorithm: Type.Literal('Ed25519'),
    public_key: Type.String({ description: 'Base64 of the SubjectPublicKeyInfo (DER)' }),
    pem: Type.String(),
  }),
);
export type PublicKeyResponse = Static<typeof PublicKeyResponse>;

export const ExportUnavailable = Type.Object({ success: Type.Literal(false), message: Type.String() });
export type ExportUnavailable = Static<typeof ExportUnavailable>;

export const WireVersion = Type.Object({
  version: Type.Integer(),
  generated_at: Type.String({ description: 'ISO-8601 UTC' }),
  reason: Type.Unsafe<
    'created' | 'updated' | 'regenerated' | 'prepaid' | 'rate-changed' | 'emi-overridden' | 'foreclosed'
  >({
    type: 'string',
    description:
      'created, updated (terms edited), regenerated, or after a change: prepaid, rate-changed, emi-overridden, foreclosed',
  }),
  why: Type.String({
    description: 'The reason in words, naming the change: "Part-payment of ₹5,00,000.00, tenure reduced"',
  }),
  emi: Type.Number({
    description:
      'Rupees: the EMI before GST (principal + interest) in force after the version’s change (the first EMI when none; 0 once nothing is due)',
  }),
  number_of_payments: Type.Integer(),
  total_interest: Type.Number(),
  total_gst: Type.Number(),
  total_outflow: Type.Number({ description: 'Principal, interest and GST over the schedule' }),
});
export type WireVersion = Static<typeof WireVersion>;

export const ScheduleVersionsResponse = success(Type.Object({ versions: Type.Array(WireVersion) }));
export type ScheduleVersionsResponse = Static<typeof ScheduleVersionsResponse>;

export const ScheduleDiffQuery = Type.Object({
  from: Type.Optional(Type.String({ description: 'A schedule version of the loan' })),
  to: Type.Optional(Type.String({ description: 'A schedule version of the loan' })),
});
export type ScheduleDiffQuery = Static<typeof ScheduleDiffQuery>;

const Figure = Type.Object({ from: Type.Number(), to: Type.Number(), difference: Type.Number() });

export const ScheduleDiffResponse = success(
  Type.Object({
    from: WireVersion,
    to: WireVersion,
    changes: Type.Object({
      emi: Figure,
      tenure: Figure,
      total_interest: Figure,
      total_gst: Figure,
      total_outflow: Figure,
    }),
    rows: Type.Array(
      Type.Object({
        payment_number: Type.Integer(),
        from: Type.Union([WireScheduleRow, Type.Null()]),
        to: Type.Union([WireScheduleRow, Type.Null()]),
      }),
    ),
  }),
);
export type ScheduleDiffResponse = Static<typeof ScheduleDiffResponse>;
