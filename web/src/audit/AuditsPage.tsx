import { Button, Card, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { PageHeader } from '../app/layout/PageHeader';
import { TableScroll } from '../ui/TableScroll';
import { useGetAuditGrantsQuery } from './auditApi';
import { formatGrantDate, useAuditAccount } from './auditMode';
import { useAuditNavigation } from './useAuditNavigation';
import '../ui/money-screens.css';

/** /audits (issue 14): the accounts shared with this user, read-only; the grant mail links here. */
export function AuditsPage() {
  const grants = useGetAuditGrantsQuery(undefined, { refetchOnMountOrArgChange: true });
  const current = useAuditAccount();
  const { open, leave } = useAuditNavigation();
  const received = grants.data?.received ?? [];
  return (
    <>
      <PageHeader
        title="Shared with you"
        subtitle="Accounts other Kosh users let you read, read-only, until the grant expires"
      />
      <Card>
        {grants.isLoading ? (
          <div className="kosh-page-loading" role="status">
            <Spinner aria-hidden />
            <span>Loading shared accounts...</span>
          </div>
        ) : grants.isError && !grants.data ? (
          <NonIdealState icon="error" title="Failed to fetch shared accounts" />
        ) : received.length === 0 ? (
          <NonIdealState
            icon="eye-open"
            title="No account is shared with you"
            description="When someone grants you auditor access, it appears here until it expires or is revoked."
          />
        ) : (
          <TableScroll label="Accounts shared with you">
            <HTMLTable striped className="kosh-stack" aria-label="Shared accounts">
              <thead>
                <tr>
                  <th scope="col">Owner</th>
                  <th scope="col">Access until</th>
                  <th scope="col">As of limit</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {received.map((grant) => (
                  <tr key={grant.id}>
                    <td data-label="Owner">{grant.ownerName}</td>
                    <td data-label="Access until">{formatGrantDate(grant.expiresAt)}</td>
                    <td data-label="As of limit">
                      {grant.asOfLimit ? formatGrantDate(grant.asOfLimit) : 'None (live)'}
                    </td>
                    <td data-label="Actions">
                      {current?.grantId === grant.id ? (
                        <Button icon="log-out" text="Leave" onClick={leave} />
                      ) : (
                        <Button
                          intent="primary"
                          icon="eye-open"
                          text="Open"
                          aria-label={`Open ${grant.ownerName}'s account`}
                          onClick={() => open(grant)}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </TableScroll>
        )}
      </Card>
    </>
  );
}
