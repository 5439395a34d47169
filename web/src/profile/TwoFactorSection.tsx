import { Button, ButtonGroup, Callout, Card, H2, Intent, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { Form } from 'react-final-form';
import {
  type TwoFactorSetup,
  useConfirmTwoFactorMutation,
  useDisableTwoFactorMutation,
  useGetTwoFactorQuery,
  useRegenerateRecoveryCodesMutation,
  useSetupTwoFactorMutation,
} from '../auth/twoFactorApi';
import { FormErrorCallout, InputGroupField, PasswordField, SubmitButton, toSubmissionErrors } from '../forms';
import { toast } from '../toaster';
import './profile-security.css';

type CodeValues = { code: string };
type DisableValues = { password: string; code: string };

const CODE_MESSAGE = 'Please enter the 6-digit code from your app';
const needCode = (values: CodeValues) => (values.code?.trim() ? {} : { code: CODE_MESSAGE });
const needBoth = (values: DisableValues) => ({
  ...(values.password ? {} : { password: 'Please enter your password' }),
  ...(values.code?.trim() ? {} : { code: 'Please enter a code from your app or a recovery code' }),
});

function CodeField({ label = 'Code from your app' }: { label?: string }) {
  return (
    <InputGroupField
      name="code"
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      placeholder="123456"
      maxLength={6}
    />
  );
}

/** Shown once, right after they are made: copy or download, then they are gone from the page. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Kosh recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Recovery codes copied');
    } catch {
      toast.error('Could not copy: select the codes and copy them, or download them');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'kosh-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Callout intent={Intent.WARNING} title="Save your recovery codes now" icon="key">
      <p>
        If you lose your phone, each of these codes signs you in once instead of a code from the app. They are
        shown only this once.
      </p>
      <ul className="kosh-recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <ButtonGroup className="kosh-recovery-actions">
        <Button icon="duplicate" text="Copy codes" onClick={copy} />
        <Button icon="download" text="Download codes" onClick={download} />
        <Button intent={Intent.PRIMARY} icon="tick" text="I have saved them" onClick={onDone} />
      </ButtonGroup>
    </Callout>
  );
}

/**
 * /profile's "Two-factor sign-in" (issue 32): turn it on with a QR code and a confirming code,
 * see the recovery codes once, make new ones, or turn it off with the password and a code.
 */
export function TwoFactorSection() {
  const status = useGetTwoFactorQuery();
  const [setupTwoFactor, setupState] = useSetupTwoFactorMutation();
  const [confirmTwoFactor] = useConfirmTwoFactorMutation();
  const [regenerate] = useRegenerateRecoveryCodesMutation();
  const [disableTwoFactor] = useDisableTwoFactorMutation();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [action, setAction] = useState<'regenerate' | 'disable' | null>(null);

  const start = async () => {
    const answer = await setupTwoFactor();
    if ('data' in answer && answer.data) setSetup(answer.data.data);
  };

  const onConfirm = async ({ code }: CodeValues) => {
    try {
      const answer = await confirmTwoFactor({ code: code.trim() }).unwrap();
      setSetup(null);
      setCodes(answer.data.recoveryCodes);
      toast.success('Two-factor sign-in is on');
      return undefined;
    } catch (error) {
      return toSubmissionErrors(error, ['code'], 'Failed to turn on two-factor sign-in');
    }
  };

  const onRegenerate = async ({ code }: CodeValues) => {
    try {
      const answer = await regenerate({ code: code.trim() }).unwrap();
      setAction(null);
      setCodes(answer.data.recoveryCodes);
      toast.success(answer.message ?? 'New recovery codes made');
      return undefined;
    } catch (error) {
      return toSubmissionErrors(error, ['code'], 'Failed to make new recovery codes');
    }
  };

  const onDisable = async ({ password, code }: DisableValues) => {
    try {
      const answer = await disableTwoFactor({ password, code: code.trim() }).unwrap();
      setAction(null);
      toast.success(answer.message ?? 'Two-factor sign-in is off');
      return undefined;
    } catch (error) {
      return toSubmissionErrors(error, ['password', 'code'], 'Failed to turn off two-factor sign-in');
    }
  };

  const enabled = status.data?.enabled ?? false;
  return (
    <Card className="kosh-two-factor" role="region" aria-labelledby="two-factor-title">
      <div className="kosh-card-header">
        <H2 className="kosh-card-title" id="two-factor-title">
          Two-factor sign-in
        </H2>
        {status.data ? (
          <Tag round intent={enabled ? Intent.SUCCESS : Intent.NONE}>
            {enabled ? 'On' : 'Off'}
          </Tag>
        ) : null}
      </div>
      <p className="kosh-muted">
        Besides your password, signing in asks for a 6-digit code from an authenticator app on your phone
        (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…).
      </p>
      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
      {status.isError && !status.data ? (
        <p className="kosh-muted">Failed to fetch two-factor status</p>
      ) : null}
      {status.data && !enabled && !setup && !codes ? (
        <Button
          intent={Intent.PRIMARY}
          icon="shield"
          text="Turn on two-factor sign-in"
          loading={setupState.isLoading}
          onClick={start}
        />
      ) : null}
      {setup ? (
        <div className="kosh-two-factor-setup">
          <ol className="kosh-two-factor-steps">
            <li>Scan this QR code with your authenticator app.</li>
            <li>Enter the 6-digit code the app shows.</li>
          </ol>
          <div className="kosh-two-factor-enrol">
            <img className="kosh-qr" src={setup.qrCode} alt="QR code to add Kosh to your authenticator app" />
            <div>
              <p className="kosh-muted">Cannot scan? Type this key into the app:</p>
              <code className="kosh-secret" data-testid="setup-key">
                {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
              </code>
              <Form<CodeValues>
                onSubmit={onConfirm}
                validate={needCode}
                initialValues={{ code: '' }}
                render={({ handleSubmit }) => (
                  <form onSubmit={handleSubmit} noValidate aria-label="Confirm two-factor sign-in">
                    <FormErrorCallout />
                    <CodeField />
                    <div className="kosh-form-actions">
                      <Button text="Cancel" onClick={() => setSetup(null)} />
                      <SubmitButton icon="tick" text="Confirm" busyText="Confirming..." />
                    </div>
                  </form>
                )}
              />
            </div>
          </div>
        </div>
      ) : null}
      {enabled && !codes ? (
        <>
          <p>
            Recovery codes left: <strong>{status.data?.recoveryCodesLeft ?? 0}</strong>
          </p>
          {action === null ? (
            <div className="kosh-form-actions kosh-two-factor-actions">
              <Button icon="key" text="New recovery codes" onClick={() => setAction('regenerate')} />
              <Button
                intent={Intent.DANGER}
                icon="disable"
                text="Turn off"
                onClick={() => setAction('disable')}
              />
            </div>
          ) : null}
          {action === 'regenerate' ? (
            <Form<CodeValues>
              onSubmit={onRegenerate}
              validate={needCode}
              initialValues={{ code: '' }}
              render={({ handleSubmit }) => (
                <form onSubmit={handleSubmit} noValidate aria-label="New recovery codes">
                  <p className="kosh-muted">The codes you have now stop working.</p>
                  <FormErrorCallout />
                  <CodeField />
                  <div className="kosh-form-actions">
                    <Button text="Cancel" onClick={() => setAction(null)} />
                    <SubmitButton icon="key" text="Make new codes" busyText="Making..." />
                  </div>
                </form>
              )}
            />
          ) : null}
          {action === 'disable' ? (
            <Form<DisableValues>
              onSubmit={onDisable}
              validate={needBoth}
              initialValues={{ password: '', code: '' }}
              render={({ handleSubmit }) => (
                <form onSubmit={handleSubmit} noValidate aria-label="Turn off two-factor sign-in">
                  <FormErrorCallout />
                  <div className="kosh-form-columns">
                    <PasswordField name="password" label="Password" autoComplete="current-password" />
                    <InputGroupField
                      name="code"
                      label="Code from your app or a recovery code"
                      autoComplete="one-time-code"
                    />
                  </div>
                  <div className="kosh-form-actions">
                    <Button text="Cancel" onClick={() => setAction(null)} />
                    <SubmitButton
                      intent={Intent.DANGER}
                      icon="disable"
                      text="Turn off"
                      busyText="Turning off..."
                    />
                  </div>
                </form>
              )}
            />
          ) : null}
        </>
      ) : null}
    </Card>
  );
}
