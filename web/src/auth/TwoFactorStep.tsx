import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { Form } from 'react-final-form';
import { FormErrorCallout, InputGroupField, SubmitButton, toSubmissionErrors } from '../forms';
import { useLoginTwoFactorMutation } from './twoFactorApi';
import type { User } from './user';

type CodeValues = { code: string };

const requiredCode = (recovery: boolean) => (values: CodeValues) =>
  values.code?.trim()
    ? {}
    : { code: recovery ? 'Please enter a recovery code' : 'Please enter the 6-digit code' };

/**
 * Issue 32: the second step of a sign-in with two-factor on — the code from the authenticator
 * app, or one of the recovery codes. `pendingToken` is what the password step answered.
 */
export function TwoFactorStep({
  pendingToken,
  onSignedIn,
  onBack,
}: {
  pendingToken: string;
  onSignedIn: (session: { token: string; user: User }) => void;
  onBack: () => void;
}) {
  const [loginTwoFactor] = useLoginTwoFactorMutation();
  const [recovery, setRecovery] = useState(false);

  const onSubmit = async ({ code }: CodeValues) => {
    try {
      const answer = await loginTwoFactor({ pendingToken, code: code.trim() }).unwrap();
      onSignedIn(answer.data);
      return undefined;
    } catch (error) {
      return toSubmissionErrors(error, ['code'], 'Login failed. Please try again.');
    }
  };

  return (
    <Form<CodeValues>
      key={recovery ? 'recovery' : 'totp'}
      onSubmit={onSubmit}
      validate={requiredCode(recovery)}
      initialValues={{ code: '' }}
      render={({ handleSubmit }) => (
        <form onSubmit={handleSubmit} noValidate aria-label="Two-factor code">
          <p className="kosh-muted">
            {recovery
              ? 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
              : 'Open your authenticator app and enter the 6-digit code it shows for Kosh.'}
          </p>
          <FormErrorCallout />
          {recovery ? (
            <InputGroupField
              name="code"
              label="Recovery code"
              autoComplete="off"
              placeholder="xxxxx-xxxxx"
              leftIcon="key"
              size="large"
              autoFocus
            />
          ) : (
            <InputGroupField
              name="code"
              label="Authentication code"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="123456"
              leftIcon="mobile-phone"
              size="large"
              maxLength={6}
              autoFocus
            />
          )}
          <SubmitButton size="large" fill text="Verify" busyText="Verifying..." />
          <div className="kosh-form-row kosh-two-factor-links">
            <Button variant="minimal" onClick={() => setRecovery((r) => !r)}>
              {recovery ? 'Use the code from your app' : 'Use a recovery code'}
            </Button>
            <Button variant="minimal" onClick={onBack}>
              Back to sign in
            </Button>
          </div>
        </form>
      )}
    />
  );
}
