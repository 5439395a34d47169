import { Callout, Card, Intent } from '@blueprintjs/core';
import { validateChangePasswordForm } from '@kosh/domain';
import { Form } from 'react-final-form';
import { PageHeader } from '../app/layout/PageHeader';
import { useAppDispatch, useAppSelector } from '../app/store';
import { useChangePasswordMutation } from '../auth/authApi';
import { signedIn } from '../auth/sessionActions';
import { tokenStorage } from '../auth/token';
import type { User } from '../auth/user';
import { FormErrorCallout, formValidator, PasswordField, SubmitButton, toSubmissionErrors } from '../forms';
import { toast } from '../toaster';

type ChangePasswordValues = { currentPassword: string; newPassword: string; confirmPassword: string };

const validate = formValidator<ChangePasswordValues>(validateChangePasswordForm);

const initialValues: ChangePasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordPage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.session.user);
  const [changePassword] = useChangePasswordMutation();

  const onSubmit = async ({ currentPassword, newPassword }: ChangePasswordValues) => {
    try {
      const answer = await changePassword({ currentPassword, newPassword }).unwrap();
      // A change invalidates earlier tokens; when the answer carries a fresh one, keep the session.
      const fresh = answer.data as { token?: string; user?: User } | null;
      if (fresh?.token) {
        const remember = tokenStorage.read()?.remember ?? false;
        const nextUser = fresh.user ?? user;
        if (nextUser) dispatch(signedIn({ token: fresh.token, user: nextUser, remember }));
      }
      toast.success(answer.message ?? 'Password changed successfully');
      return undefined;
    } catch (error) {
      return toSubmissionErrors(error, ['currentPassword', 'newPassword'], 'Failed to change password');
    }
  };

  return (
    <div className="kosh-narrow-page">
      <PageHeader title="Change Password" subtitle="Choose a new password for signing in" />
      <Card>
        <Callout
          intent={Intent.PRIMARY}
          title="Password requirements"
          icon="info-sign"
          className="kosh-requirements"
        >
          <ul>
            <li>At least 6 characters long</li>
            <li>A mix of letters, numbers and symbols</li>
            <li>Not easily guessable (avoid names, birthdays and common words)</li>
          </ul>
        </Callout>
        <Form<ChangePasswordValues>
          onSubmit={onSubmit}
          validate={validate}
          initialValues={initialValues}
          render={({ handleSubmit, form }) => (
            <form
              onSubmit={async (event) => {
                const errors = await handleSubmit(event);
                if (!errors && form.getState().submitSucceeded) form.restart(initialValues);
              }}
              noValidate
              aria-label="Change password"
            >
              <FormErrorCallout />
              <PasswordField
                name="currentPassword"
                label="Current Password"
                autoComplete="current-password"
              />
              <PasswordField name="newPassword" label="New Password" autoComplete="new-password" />
              <PasswordField
                name="confirmPassword"
                label="Confirm New Password"
                autoComplete="new-password"
              />
              <SubmitButton icon="key" text="Update Password" busyText="Updating..." />
            </form>
          )}
        />
      </Card>
    </div>
  );
}
