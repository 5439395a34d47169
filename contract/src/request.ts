import { type Static, Type } from 'typebox';

/** Route parameters of everything addressed by its id (loans, transactions, banks, loan types). */
export const IdParams = Type.Object({ id: Type.String() });
export type IdParams = Static<typeof IdParams>;

/**
 * A body field the route validates itself: text, a number or null pass the schema so that a bad
 * value gets the spec's own message rather than a generic one.
 */
export const Loose = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()], { description }));

/** A query parameter: text the route parses itself, so that a bad value gets its own message. */
export const QueryText = (description: string) => Type.Optional(Type.String({ description }));

/** The `as_of` query parameter every as-of route takes. */
export const AsOfParam = Type.Optional(
  Type.String({
    description:
      'Answer as of this instant: YYYY-MM-DD (the end of that day, India time) or an ISO date-time (India time when no zone). Not in the future.',
  }),
);
export const AsOfQuery = Type.Object({ as_of: AsOfParam });
export type AsOfQuery = Static<typeof AsOfQuery>;
