import { Callout, Intent } from '@blueprintjs/core';
import { validateResetPasswordForm } from '@kosh/domain';
import { useState } from 'react';
import { Form } from 'react-final-form';
import { Link, useLocation } from 'wouter';
import { isApiError } from '../api/apiError';
import { FormErrorCallout, formValidator, PasswordField, SubmitButton, toSubmissionErrors } from '../forms';
import { AuthLayout } from './AuthLayout';
import { useResetPasswordMutation } from './authApi';
import { useQueryParam } from './useQueryParam';

type ResetValues = { password: string; confirmPassword: string };

const validate = formValidator<ResetValues>(validateResetPasswordForm);

export const PASSWORD_RESET_MESSAGE = 'Password reset successful. Please sign in with your new password.';

function BadLink({ message }: { message: string }) {
  return (
    <Callout intent={Intent.DANGER} title={message} icon="error" role="alert">
      <p>Reset links work once and expire after 1 hour.</p>
      <Link href="/forgot-password">Request a new reset link</Link>
    </Callout>
  );
}

/** Not in the spec's screen list, but the reset mail links here: /reset-password?token=… */
export function ResetPasswordPage() {
  const token = useQueryParam('token');
  const [, navigate] = useLocation();
  const [resetPassword] = useResetPasswordMutation();
  const [linkError, setLinkError] = useState<string | null>(null);

  const onSubmit = async ({ password }: ResetValues) => {
    try {
      await resetPassword({ token: token ?? '', password }).unwrap();
      navigate(`/login?message=${encodeURIComponent(PASSWORD_RESET_MESSAGE)}`, { replace: true });
      return undefined;
    } catch (error) {
      // A rejected token is not something the form can fix: show it with a way out.
      if (isApiError(error) && error.status === 400) {
        setLinkError(error.message);
        return undefined;
      }
      return toSubmissionErrors(error, ['password'], 'Password reset failed');
    }
  };

  return (
    <AuthLayout
      title="Choose a New Password"
      subtitle="Enter a new password for your account."
      footer={<Link href="/login">Back to Sign In</Link>}
    >
      {!token ? (
        <BadLink message="Invalid password reset link" />
      ) : linkError ? (
        <BadLink message={linkError} />
      ) : (
        <Form<ResetValues>
          onSubmit={onSubmit}
          validate={validate}
          initialValues={{ password: '', confirmPassword: '' }}
          render={({ handleSubmit }) => (
            <form onSubmit={handleSubmit} noValidate aria-label="Choose a new password">
              <FormErrorCallout />
              <PasswordField
                name="password"
                label="New Password"
                autoComplete="new-password"
                placeholder="At least 6 characters"
                leftIcon="lock"
                helperText="Use upper- and lower-case letters and a number."
              />
              <PasswordField
                name="confirmPassword"
                label="Confirm Password"
                autoComplete="new-password"
                placeholder="Repeat the password"
                leftIcon="lock"
              />
              <SubmitButton size="large" fill text="Reset Password" />
            </form>
          )}
        />
      )}
    </AuthLayout>
  );
}
