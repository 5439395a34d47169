import { Alert, Button, Card, H2, HTMLTable, Intent, NonIdealState, Tag } from '@blueprintjs/core';
import type { FormApi } from 'final-form';
import { useState } from 'react';
import { Form } from 'react-final-form';
import { Link } from 'wouter';
import { todayIso } from '../format';
import { FormErrorCallout, InputGroupField, SubmitButton, toSubmissionErrors } from '../forms';
import { toast } from '../toaster';
import { TableScroll } from '../ui/TableScroll';
import {
  type GivenGrant,
  type GrantStatus,
  useGetAuditGrantsQuery,
  useGrantAuditAccessMutation,
  useRevokeAuditAccessMutation,
} from './auditApi';
import { formatGrantDate } from './auditMode';
import '../ui/money-screens.css';
import './audit.css';

/** `auditorEmail`, not `email`: the profile form above has a field of that name (and its id). */
type GrantValues = { auditorEmail: string; expiresAt: string; asOfLimit: string };

const FIELDS = ['email', 'expiresAt', 'asOfLimit'] as const;
const EMPTY: GrantValues = { auditorEmail: '', expiresAt: '', asOfLimit: '' };
const STATUS_INTENT: Record<GrantStatus, Intent> = {
  active: Intent.SUCCESS,
  expired: Intent.NONE,
  revoked: Intent.DANGER,
};

/**
 * /profile's "Auditor access" (issue 14): grant someone read-only access to this account until a
 * date (optionally only as it was on a date), see every grant given, revoke one at once.
 */
export function AuditorAccessSection() {
  const grants = useGetAuditGrantsQuery();
  const [grantAccess] = useGrantAuditAccessMutation();
  const [revokeAccess, revocation] = useRevokeAuditAccessMutation();
  const [revoking, setRevoking] = useState<GivenGrant | null>(null);

  const onSubmit = async (values: GrantValues, form: FormApi<GrantValues>) => {
    try {
      const answer = await grantAccess({
        email: values.auditorEmail.trim(),
        expiresAt: values.expiresAt,
        ...(values.asOfLimit ? { asOfLimit: values.asOfLimit } : {}),
      }).unwrap();
      toast.success(answer.message ?? 'Access granted');
      setTimeout(() => form.restart(EMPTY));
      return undefined;
    } catch (error) {
      const { email, ...errors } = toSubmissionErrors(error, FIELDS, 'Failed to grant access') ?? {};
      return email ? { ...errors, auditorEmail: email } : errors;
    }
  };

  const confirmRevoke = async () => {
    if (!revoking) return;
    const result = await revokeAccess(revoking.id);
    setRevoking(null);
    if (!('error' in result)) toast.success(result.data.message ?? 'Access revoked');
  };

  const given = grants.data?.granted ?? [];
  return (
    <Card className="kosh-auditor-access">
      <div className="kosh-card-header">
        <H2 className="kosh-card-title">Auditor access</H2>
      </div>
      <p className="kosh-muted">
        Let an accountant or auditor read your ledger, loans, transactions and history with their own Kosh
        account, read-only, until the date you choose. Each of their reads appears on your{' '}
        <Link href="/history">history</Link>. Accounts shared with you are under{' '}
        <Link href="/audits">Shared with you</Link>.
      </p>
      <Form<GrantValues>
        onSubmit={onSubmit}
        initialValues={EMPTY}
        render={({ handleSubmit }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Grant auditor access">
            <FormErrorCallout />
            <div className="kosh-form-columns">
              <InputGroupField name="auditorEmail" label="Auditor's email" type="email" autoComplete="off" />
              <InputGroupField name="expiresAt" label="Access until" type="date" min={todayIso()} />
              <InputGroupField
                name="asOfLimit"
                label="As of (optional)"
                type="date"
                helperText="Show the account only as it was at the end of this day"
              />
            </div>
            <div className="kosh-form-actions">
              <SubmitButton icon="key" text="Grant access" busyText="Granting..." />
            </div>
          </form>
        )}
      />
      <H2 className="kosh-section-title">Grants you gave</H2>
      {grants.isError && !grants.data ? (
        <p className="kosh-muted">Failed to fetch grants</p>
      ) : given.length === 0 ? (
        <NonIdealState icon="people" title="No grants yet" description="Nobody else can read your account." />
      ) : (
        <TableScroll label="Grants you gave">
          <HTMLTable striped className="kosh-stack" aria-label="Auditor grants" aria-busy={grants.isFetching}>
            <thead>
              <tr>
                <th scope="col">Auditor</th>
                <th scope="col">Access until</th>
                <th scope="col">As of limit</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {given.map((grant) => (
                <tr key={grant.id}>
                  <td data-label="Auditor">{grant.email}</td>
                  <td data-label="Access until">{formatGrantDate(grant.expiresAt)}</td>
                  <td data-label="As of limit">{grant.asOfLimit ? formatGrantDate(grant.asOfLimit) : '—'}</td>
                  <td data-label="Status">
                    <Tag round intent={STATUS_INTENT[grant.status]}>
                      {grant.status}
                    </Tag>
                  </td>
                  <td data-label="Actions">
                    {grant.status === 'active' ? (
                      <Button
                        variant="minimal"
                        intent="danger"
                        icon="disable"
                        text="Revoke"
                        aria-label={`Revoke access of ${grant.email}`}
                        onClick={() => setRevoking(grant)}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
      <Alert
        isOpen={revoking !== null}
        intent="danger"
        icon="disable"
        cancelButtonText="Cancel"
        confirmButtonText="Revoke"
        loading={revocation.isLoading}
        onCancel={() => setRevoking(null)}
        onConfirm={confirmRevoke}
      >
        <p>Revoke this auditor's access? They lose it at once.</p>
        {revoking ? <p className="kosh-muted">{revoking.email}</p> : null}
      </Alert>
    </Card>
  );
}
