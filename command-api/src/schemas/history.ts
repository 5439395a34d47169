import { type Static, Type } from 'typebox';

const QueryText = (description: string) => Type.Optional(Type.String({ description }));

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

export const HistoryResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    entries: Type.Array(WireTimelineEntry),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  }),
});

export const PublicKeyResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    algorithm: Type.Literal('Ed25519'),
    public_key: Type.String({ description: 'Base64 of the SubjectPublicKeyInfo (DER)' }),
    pem: Type.String(),
  }),
});

export const ExportUnavailable = Type.Object({ success: Type.Literal(false), message: Type.String() });
