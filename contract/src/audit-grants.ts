import { type Static, Type } from 'typebox';
import { MessageOnlyResponse, success } from './envelope';

/** Issue 14 (auditor access), wire names in snake_case. Fields optional so a missing one gets its own message. */
export const AuditGrantBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  expires_at: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'YYYY-MM-DD (the end of that day, India time) or ISO date-time; within a year',
    }),
  ),
  as_of_limit: Type.Optional(
    Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
      description: 'The auditor sees the account as it stood at this instant at the latest',
    }),
  ),
});
export type AuditGrantBody = Static<typeof AuditGrantBody>;

export const AuditGrantParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type AuditGrantParams = Static<typeof AuditGrantParams>;

/** A grant as its owner sees it. */
export const WireAuditGrant = Type.Object({
  id: Type.String(),
  email: Type.String(),
  expires_at: Type.String(),
  as_of_limit: Type.Union([Type.String(), Type.Null()]),
  granted_at: Type.String(),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
});

/** A grant as its auditor sees it: whose account, until when; send `X-Kosh-Account: owner_user_id`. */
export const WireReceivedGrant = Type.Object({
  id: Type.String(),
  owner_user_id: Type.String(),
  owner_name: Type.String(),
  expires_at: Type.String(),
  as_of_limit: Type.Union([Type.String(), Type.Null()]),
  granted_at: Type.String(),
});

export type WireAuditGrant = Static<typeof WireAuditGrant>;
export type WireReceivedGrant = Static<typeof WireReceivedGrant>;

export const AuditGrantResponse = success(Type.Object({ grant: WireAuditGrant }));
export type AuditGrantResponse = Static<typeof AuditGrantResponse>;

export const AuditGrantListResponse = success(
  Type.Object({
    granted: Type.Array(WireAuditGrant, { description: 'Grants you gave, newest first' }),
    received: Type.Array(WireReceivedGrant, { description: 'Live grants to your address' }),
  }),
);
export type AuditGrantListResponse = Static<typeof AuditGrantListResponse>;

export const AuditGrantRevokedResponse = MessageOnlyResponse;
