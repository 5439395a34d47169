import { Button, Icon, Intent, Spinner } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { isApiError } from '../api/apiError';
import { useAppDispatch, useAppSelector } from '../app/store';
import { toast } from '../toaster';
import { AuthLayout } from './AuthLayout';
import { useResendVerificationMutation, useVerifyEmailMutation } from './authApi';
import { signedIn } from './sessionActions';
import { useQueryParam } from './useQueryParam';
import type { User } from './user';

/** Spec section 2: redirect to /login 3 s after a successful verification. */
export const VERIFIED_REDIRECT_MS = 3000;

type VerifyState =
  | { kind: 'verifying' }
  | { kind: 'verified'; token: string; user: User }
  | { kind: 'failed'; message: string }
  | { kind: 'invalid' };

/**
 * What a refused link means, in words: a link works once and for a while, so the usual cause is a
 * link already used (the address is then verified) or an old one. Signed in, the account's address
 * is a verified one, and nothing was changed by the link.
 */
function failedExplanation(signedInEmail: string | null): string {
  if (signedInEmail)
    return `You are signed in as ${signedInEmail}, an address already verified: this link was used before or has expired, and nothing was changed.`;
  return 'A verification link works once. If you have already used it, your address is verified: sign in. Otherwise send yourself a new link.';
}

export function VerifyEmailPage() {
  const token = useQueryParam('token');
  const email = useQueryParam('email');
  const dispatch = useAppDispatch();
  // A mailed link may be opened in a tab that is signed in (an address change is confirmed there).
  const signedInAs = useAppSelector((state) =>
    state.session.status === 'authenticated' ? state.session.user : null,
  );
  const [, navigate] = useLocation();
  const [verifyEmail] = useVerifyEmailMutation();
  const [resend, { isLoading: resending }] = useResendVerificationMutation();
  const [state, setState] = useState<VerifyState>(token ? { kind: 'verifying' } : { kind: 'invalid' });
  // Verification tokens are single-use: verify once, even when effects run twice.
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    verifyEmail({ token })
      .unwrap()
      .then((answer) => {
        // Two-factor on (issue 32): the link verifies, and signing in asks for the code.
        if ('twoFactorRequired' in answer.data) {
          navigate('/login?message=Email%20verified.%20Please%20sign%20in.', { replace: true });
          return;
        }
        setState({ kind: 'verified', token: answer.data.token, user: answer.data.user });
      })
      .catch((error: unknown) =>
        setState({
          kind: 'failed',
          message: isApiError(error) ? error.message : 'Failed to verify email. Please try again.',
        }),
      );
  }, [token, verifyEmail, navigate]);

  // Verification signs the user in for this tab (spec section 4: session storage); the session
  // starts when the screen is left, so the verified state stays visible until then.
  const goToLogin = () => {
    if (state.kind === 'verified')
      dispatch(signedIn({ token: state.token, user: state.user, remember: false }));
    navigate('/login', { replace: true });
  };
  const leave = useRef(goToLogin);
  leave.current = goToLogin;

  useEffect(() => {
    if (state.kind !== 'verified') return;
    const timer = setTimeout(() => leave.current(), VERIFIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state.kind]);

  const resendVerification = async () => {
    if (!email) {
      toast.error('Email address not found. Please register again.');
      return;
    }
    try {
      const answer = await resend({ email }).unwrap();
      toast.success(answer.message ?? 'Verification email sent. Please check your inbox.');
    } catch {
      // The API layer has already shown the failure.
    }
  };

  switch (state.kind) {
    case 'verifying':
      return (
        <AuthLayout title="Verifying Email">
          <div className="kosh-auth-state" role="status">
            <Spinner aria-label="Verifying" />
            <p>Please wait while we verify your email address.</p>
          </div>
        </AuthLayout>
      );
    case 'verified':
      return (
        <AuthLayout title="Email Verified!">
          <div className="kosh-auth-state" role="status">
            <Icon icon="tick-circle" size={48} intent={Intent.SUCCESS} aria-hidden />
            <p>Your email address has been verified. Taking you to sign in…</p>
            <Button intent={Intent.PRIMARY} size="large" fill onClick={goToLogin} text="Go to Login" />
          </div>
        </AuthLayout>
      );
    case 'failed':
    case 'invalid':
      return (
        <AuthLayout title="Verification Failed">
          <div className="kosh-auth-state">
            <Icon icon="error" size={48} intent={Intent.DANGER} aria-hidden />
            <p role="alert">{state.kind === 'invalid' ? 'Invalid verification link' : state.message}</p>
            {state.kind === 'failed' ? <p>{failedExplanation(signedInAs?.email ?? null)}</p> : null}
            <Button
              intent={signedInAs ? Intent.NONE : Intent.PRIMARY}
              size="large"
              fill
              loading={resending}
              onClick={resendVerification}
              text="Resend Verification Email"
            />
            {signedInAs ? (
              <Button
                intent={Intent.PRIMARY}
                size="large"
                fill
                onClick={() => navigate('/dashboard')}
                text="Go to Dashboard"
              />
            ) : (
              <Button variant="minimal" fill onClick={() => navigate('/login')} text="Back to Login" />
            )}
          </div>
        </AuthLayout>
      );
  }
}
