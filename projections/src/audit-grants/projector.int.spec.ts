import { auditGrantDecider, auditGrantStreamId } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { later, now, userId } from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { auditGrantsProjection } from './projector';

const ROWS = `SELECT grant_id, owner_user_id, email, as_of_limit, revoked_at IS NOT NULL AS revoked, version
  FROM audit_grants ORDER BY grant_id`;

const grantId = 'a1b2c3d4-0000-4000-8000-000000000001';
const grant = {
  type: 'GrantAuditAccess',
  data: {
    grantId,
    userId,
    ownerName: 'Asha Rao',
    ownerEmail: 'asha@example.in',
    email: 'ca@example.in',
    expiresAt: '2026-02-10T10:00:00.000Z',
    asOfLimit: null,
    now,
  },
} as const;
const revoke = { type: 'RevokeAuditAccess', data: { grantId, userId, now: later } } as const;

describe('audit grants read model in PostgreSQL', () => {
  const spec = readModelSpec(auditGrantsProjection);

  const stream = () => recordedStream(auditGrantDecider, auditGrantStreamId(grantId), userId);

  it('holds one row per grant, revoked once revoked', async () => {
    const grants = stream();
    await spec.apply(grants.decide(grant));
    const granted = {
      grant_id: grantId,
      owner_user_id: userId,
      email: 'ca@example.in',
      as_of_limit: null,
      revoked: false,
      version: 1,
    };
    expect(await spec.rows(ROWS)).toEqual([granted]);
    await spec.apply(grants.decide(revoke));
    expect(await spec.rows(ROWS)).toEqual([{ ...granted, revoked: true, version: 2 }]);
  });

  it('lands an event delivered twice once', async () => {
    const counts = await spec.landsOnce(stream().decide(grant, revoke));
    expect(counts).toEqual([1]);
  });
});
