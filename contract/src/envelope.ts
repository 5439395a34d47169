import { type Static, type TSchema, Type } from 'typebox';

/**
 * The envelopes of ARCHITECTURE.md ("Money, dates, errors"), written once: every answer of /api
 * is one of these. A success carries `data` and, on writes, a message for the toast.
 */
export const success = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), message: Type.Optional(Type.String()), data });

/**
 * A nullable string or number of an answer, as a type list (`["string", "null"]`): the
 * serializer writes a union (`anyOf`) by validating each branch in turn, on every row of a list.
 */
export const orNull = <T extends 'string' | 'number'>(type: T, options: { description?: string } = {}) =>
  Type.Unsafe<(T extends 'string' ? string : number) | null>({ type: [type, 'null'], ...options });

/** A write that answers in words only. */
export const MessageOnlyResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });
export type MessageOnlyResponse = Static<typeof MessageOnlyResponse>;

/** A write whose answer has nothing to show but its message: `data` is null. */
export const MessageResponse = success(Type.Null());
export type MessageResponse = Static<typeof MessageResponse>;

export const FieldError = Type.Object({ field: Type.String(), message: Type.String() });
export type FieldError = Static<typeof FieldError>;

export const ErrorResponse = Type.Object({
  success: Type.Literal(false),
  message: Type.String(),
  errorCode: Type.String(),
  errors: Type.Array(FieldError),
  timestamp: Type.String(),
});
export type ErrorResponse = Static<typeof ErrorResponse>;

/** Error answers a route may give, for the OpenAPI document. */
export const errorResponses = (...statuses: (400 | 401 | 403 | 404 | 409 | 413 | 422 | 429)[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));

/** The page of a list answered inside `data` (the transaction book, an account's register). */
export const PageInfo = Type.Object({
  current_page: Type.Integer(),
  total_pages: Type.Integer(),
  total_items: Type.Integer(),
  has_prev: Type.Boolean(),
  has_next: Type.Boolean(),
});
export type PageInfo = Static<typeof PageInfo>;

/** The page of a list answered with `meta.pagination` (loans, banks). */
export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total_items: Type.Integer(),
  total_pages: Type.Integer(),
});
export type Pagination = Static<typeof Pagination>;

/** The `meta.pagination` of page `page` of `limit` items out of `totalItems`. */
export const paginationOf = (page: number, limit: number, totalItems: number): Pagination => ({
  page,
  limit,
  total_items: totalItems,
  total_pages: Math.ceil(totalItems / limit),
});

/** A list answer: one page of items in `data`, where it stands in `meta.pagination`. */
export const page = <T extends TSchema>(item: T) =>
  Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    meta: Type.Object({ pagination: Pagination }),
  });
