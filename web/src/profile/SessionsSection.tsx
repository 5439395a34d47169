import { Alert, Button, Card, H2, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import {
  type Session,
  useEndOtherSessionsMutation,
  useEndSessionMutation,
  useGetSessionsQuery,
} from '../auth/twoFactorApi';
import { toast } from '../toaster';
import { TableScroll } from '../ui/TableScroll';
import '../ui/money-screens.css';
import './profile-security.css';

const when = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Asia/Kolkata',
});

const clientOf = (s: Session) => `${s.browser} on ${s.os}`;

/**
 * /profile's "Sessions" (issue 32): where the account is signed in (browser and system, address,
 * started, last seen), ending one, or every other at once.
 */
export function SessionsSection() {
  const sessions = useGetSessionsQuery();
  const [endSession] = useEndSessionMutation();
  const [endOthers, endingOthers] = useEndOtherSessionsMutation();
  const [confirmOthers, setConfirmOthers] = useState(false);

  const end = async (session: Session) => {
    const result = await endSession(session.id);
    if (!('error' in result)) toast.success(result.data.message ?? 'Session ended');
  };
  const onEndOthers = async () => {
    setConfirmOthers(false);
    const result = await endOthers();
    if (!('error' in result)) toast.success(result.data.message ?? 'Other sessions ended');
  };

  const list = sessions.data ?? [];
  const others = list.filter((s) => !s.current).length;
  return (
    <Card className="kosh-sessions" role="region" aria-labelledby="sessions-title">
      <div className="kosh-card-header">
        <H2 className="kosh-card-title" id="sessions-title">
          Sessions
        </H2>
        {others > 0 ? (
          <Button
            intent={Intent.DANGER}
            icon="log-out"
            text="End all other sessions"
            loading={endingOthers.isLoading}
            onClick={() => setConfirmOthers(true)}
          />
        ) : null}
      </div>
      <p className="kosh-muted">
        Where your account is signed in. End a session you do not recognise, then change your password.
      </p>
      {sessions.isError && !sessions.data ? (
        <p className="kosh-muted">Failed to fetch sessions</p>
      ) : (
        <TableScroll label="Signed-in sessions">
          <HTMLTable striped className="kosh-stack" aria-label="Sessions" aria-busy={sessions.isFetching}>
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Address</th>
                <th scope="col">Started</th>
                <th scope="col">Last seen</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((session) => (
                <tr key={session.id}>
                  <td data-label="Browser">
                    {clientOf(session)}{' '}
                    {session.current ? (
                      <Tag minimal round intent={Intent.SUCCESS}>
                        This session
                      </Tag>
                    ) : null}
                  </td>
                  <td data-label="Address">{session.address}</td>
                  <td data-label="Started">{when.format(new Date(session.startedAt))}</td>
                  <td data-label="Last seen">{when.format(new Date(session.lastSeenAt))}</td>
                  <td data-label="Actions">
                    {session.current ? null : (
                      <Button
                        variant="minimal"
                        intent={Intent.DANGER}
                        icon="log-out"
                        text="End"
                        aria-label={`End the session of ${clientOf(session)} at ${session.address}`}
                        onClick={() => end(session)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </TableScroll>
      )}
      <Alert
        isOpen={confirmOthers}
        intent={Intent.DANGER}
        icon="log-out"
        cancelButtonText="Cancel"
        confirmButtonText="End sessions"
        onCancel={() => setConfirmOthers(false)}
        onConfirm={onEndOthers}
      >
        <p>
          End {others === 1 ? 'the other session' : `all ${others} other sessions`}? They will have to sign in
          again.
        </p>
      </Alert>
    </Card>
  );
}
