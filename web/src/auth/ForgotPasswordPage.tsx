import { Button, Icon, Intent } from '@blueprintjs/core';
import { validateForgotPassword } from '@kosh/domain';
import { useState } from 'react';
import { Form } from 'react-final-form';
import { Link, useLocation } from 'wouter';
import { FormErrorCallout, formValidator, InputGroupField, SubmitButton, toSubmissionErrors } from '../forms';
import { AuthLayout } from './AuthLayout';
import { useForgotPasswordMutation } from './authApi';

type ForgotValues = { email: string };

const validate = formValidator<ForgotValues>(validateForgotPassword);

export function ForgotPasswordPage() {
  const [, navigate] = useLocation();
  const [forgotPassword] = useForgotPasswordMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = async ({ email }: ForgotValues) => {
    try {
      await forgotPassword({ email: email.trim() }).unwrap();
      setSentTo(email.trim());
      return undefined;
    } catch (error) {
      return toSubmissionErrors(error, ['email'], 'Failed to send reset link. Please try again.');
    }
  };

  if (sentTo) {
    return (
      <AuthLayout title="Check Your Email">
        <div className="kosh-auth-state">
          <Icon icon="envelope" size={48} intent={Intent.SUCCESS} aria-hidden />
          <p>
            We&apos;ve sent a password reset link to <strong>{sentTo}</strong>.
          </p>
          <p>The link expires in 1 hour. If you don&apos;t see the email, check your spam folder.</p>
          <Button
            intent={Intent.PRIMARY}
            fill
            size="large"
            onClick={() => navigate('/login')}
            text="Back to Sign In"
          />
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Reset Password"
      subtitle="Enter your email address and we'll send you a link to reset your password."
      footer={
        <>
          Remembered it? <Link href="/login">Back to Sign In</Link>
        </>
      }
    >
      <Form<ForgotValues>
        onSubmit={onSubmit}
        validate={validate}
        initialValues={{ email: '' }}
        render={({ handleSubmit }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Reset password">
            <FormErrorCallout />
            <InputGroupField
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              leftIcon="envelope"
              size="large"
            />
            <SubmitButton size="large" fill text="Send Reset Link" />
          </form>
        )}
      />
    </AuthLayout>
  );
}
