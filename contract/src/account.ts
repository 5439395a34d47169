import { type Static, Type } from 'typebox';
import { success } from './envelope';

/** Issue 32: deleting one's account. Fields optional so a missing one gets its own message. */
export const EraseAccountBody = Type.Object({
  password: Type.Optional(Type.String({ maxLength: 256 })),
  /** The second factor's code, when the account has one. */
  code: Type.Optional(Type.String({ maxLength: 64 })),
  /** The word DELETE, typed. */
  confirmation: Type.Optional(Type.String({ maxLength: 64 })),
});
export type EraseAccountBody = Static<typeof EraseAccountBody>;

export const WireErasure = Type.Object({
  requested_at: Type.String(),
  /** The account is erased at or after this instant unless the owner signs in before. */
  erase_after: Type.String(),
});
export type WireErasure = Static<typeof WireErasure>;

export const ErasureResponse = success(Type.Object({ erasure: Type.Union([WireErasure, Type.Null()]) }));
export type ErasureResponse = Static<typeof ErasureResponse>;
