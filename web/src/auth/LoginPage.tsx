import { Button, Callout, Intent } from '@blueprintjs/core';
import { validateLogin } from '@kosh/domain';
import { useEffect, useRef, useState } from 'react';
import { Form } from 'react-final-form';
import { Link, useLocation } from 'wouter';
import { useAppDispatch } from '../app/store';
import {
  CheckboxField,
  FormErrorCallout,
  formValidator,
  InputGroupField,
  PasswordField,
  SubmitButton,
  toSubmissionErrors,
} from '../forms';
import { toast } from '../toaster';
import { AuthLayout } from './AuthLayout';
import { useLoginMutation, useResendVerificationMutation } from './authApi';
import { signedIn } from './sessionActions';
import { TwoFactorStep } from './TwoFactorStep';
import { useQueryParam } from './useQueryParam';
import type { User } from './user';

type LoginValues = { email: string; password: string; rememberMe: boolean };

const validate = formValidator<LoginValues>(validateLogin);

/** The login screen keys on these words in a failure to offer a new verification mail. */
const needsVerification = (message: string) => /verif(y|ication)/i.test(message);

export function LoginPage() {
  const dispatch = useAppDispatch();
  const [, navigate] = useLocation();
  const [login] = useLoginMutation();
  const [resend, { isLoading: resending }] = useResendVerificationMutation();
  const [showResend, setShowResend] = useState(false);
  // Two-factor on (issue 32): the password step answered a pending token; the code comes next.
  const [pending, setPending] = useState<{ token: string; remember: boolean } | null>(null);
  const message = useQueryParam('message');
  const shownMessage = useRef<string | null>(null);

  useEffect(() => {
    if (message && shownMessage.current !== message) {
      shownMessage.current = message;
      toast.info(message);
    }
  }, [message]);

  const onSubmit = async (values: LoginValues) => {
    try {
      const answer = await login({
        email: values.email.trim(),
        password: values.password,
        rememberMe: values.rememberMe,
      }).unwrap();
      if ('twoFactorRequired' in answer.data) {
        setPending({ token: answer.data.pendingToken, remember: values.rememberMe });
        return undefined;
      }
      finish(answer.data, values.rememberMe);
      return undefined;
    } catch (error) {
      const errors = toSubmissionErrors(error, ['email', 'password'], 'Login failed. Please try again.');
      setShowResend(Object.values(errors ?? {}).some((m) => typeof m === 'string' && needsVerification(m)));
      return errors;
    }
  };

  const finish = (session: { token: string; user: User }, remember: boolean) => {
    dispatch(signedIn({ token: session.token, user: session.user, remember }));
    navigate('/dashboard', { replace: true });
  };

  const resendVerification = async (email: string) => {
    if (!email.trim()) {
      toast.error('Please enter your email address');
      return;
    }
    try {
      const answer = await resend({ email: email.trim() }).unwrap();
      toast.success(answer.message ?? 'Verification email sent. Please check your inbox.');
    } catch {
      // The API layer has already shown the failure.
    }
  };

  if (pending) {
    return (
      <AuthLayout title="Two-factor sign-in" subtitle="One more step to sign in">
        <TwoFactorStep
          pendingToken={pending.token}
          onSignedIn={(session) => finish(session, pending.remember)}
          onBack={() => setPending(null)}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Welcome Back"
      subtitle="Sign in to your account"
      footer={
        <>
          Don&apos;t have an account? <Link href="/register">Create one</Link>
        </>
      }
    >
      <Form<LoginValues>
        onSubmit={onSubmit}
        validate={validate}
        initialValues={{ email: '', password: '', rememberMe: false }}
        render={({ handleSubmit, values }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Sign in">
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
            <PasswordField
              name="password"
              label="Password"
              autoComplete="current-password"
              placeholder="Your password"
              leftIcon="lock"
              size="large"
            />
            <div className="kosh-form-row">
              <CheckboxField name="rememberMe" label="Remember me" />
              <Link href="/forgot-password">Forgot password?</Link>
            </div>
            <SubmitButton size="large" fill text="Sign In" />
            {showResend ? (
              <Callout
                intent={Intent.WARNING}
                title="Email not verified?"
                className="kosh-resend"
                icon="envelope"
              >
                <p>Check your inbox for the verification link, or send yourself a new one.</p>
                <Button
                  intent={Intent.WARNING}
                  loading={resending}
                  onClick={() => resendVerification(values.email ?? '')}
                  text="Resend Email"
                />
              </Callout>
            ) : null}
          </form>
        )}
      />
    </AuthLayout>
  );
}
