import { Button, Callout, Card, Dialog, DialogBody, DialogFooter, H2, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { Form } from 'react-final-form';
import { downloadWithToken } from '../api/download';
import { useAppSelector } from '../app/store';
import { useGetTwoFactorQuery } from '../auth/twoFactorApi';
import { todayIso } from '../format';
import { FormErrorCallout, InputGroupField, SubmitButton, toSubmissionErrors } from '../forms';
import { toast } from '../toaster';
import { useCancelErasureMutation, useGetErasureQuery, useRequestErasureMutation } from './accountApi';

type Values = { password: string; code: string; confirmation: string };

const when = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Asia/Kolkata',
});

/** The banner of the cooling-off period (issue 32): the account goes at `eraseAfter` unless cancelled. */
export function ErasureBanner() {
  const { data: erasure } = useGetErasureQuery();
  const [cancel, { isLoading }] = useCancelErasureMutation();
  if (!erasure) return null;
  const onCancel = async () => {
    try {
      const answer = await cancel().unwrap();
      toast.success(answer.message ?? 'Deletion cancelled');
    } catch {
      toast.error('Failed to cancel the deletion');
    }
  };
  return (
    <Callout
      intent={Intent.DANGER}
      icon="trash"
      title="Your account is scheduled for deletion"
      className="kosh-erasure-banner"
    >
      <p>
        Your account and everything in it will be erased on {when.format(new Date(erasure.eraseAfter))} (India
        time). Signing in before then keeps it.
      </p>
      <Button intent={Intent.PRIMARY} text="Cancel deletion" loading={isLoading} onClick={onCancel} />
    </Callout>
  );
}

/** /profile: "Download my data" (the whole account as one zip) and "Delete my account". */
export function AccountDeletion() {
  const token = useAppSelector((state) => state.session.token);
  // "The second factor when on": the dialog asks for a code exactly when the account has one.
  const secondFactorOn = useGetTwoFactorQuery().data?.enabled === true;
  const { data: erasure } = useGetErasureQuery();
  const [open, setOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [requestErasure] = useRequestErasureMutation();

  const download = async () => {
    setDownloading(true);
    const done = await downloadWithToken(token, '/api/account/export', `kosh-account-${todayIso()}.zip`);
    setDownloading(false);
    if (done === true) toast.success('Your data was downloaded');
    else toast.error(done.message ?? 'Failed to download your data');
  };

  const onSubmit = async (values: Values) => {
    try {
      const answer = await requestErasure({
        password: values.password ?? '',
        confirmation: values.confirmation ?? '',
        ...(secondFactorOn ? { code: values.code ?? '' } : {}),
      }).unwrap();
      toast.success(answer.message ?? 'Your account will be deleted in 7 days');
      setOpen(false);
      return undefined;
    } catch (error) {
      return toSubmissionErrors(error, ['password', 'code', 'confirmation'], 'Failed to delete the account');
    }
  };

  return (
    <Card>
      <div className="kosh-card-header">
        <H2 className="kosh-card-title">Your data</H2>
      </div>
      <p className="kosh-muted">
        Everything of yours as one zip: a JSON file of all your records, spreadsheets (CSV) of your book,
        accounts, loans, schedules and ledger months, and your signed history.
      </p>
      <div className="kosh-form-actions kosh-account-data-actions">
        <Button icon="download" text="Download my data" loading={downloading} onClick={download} />
        {erasure ? null : (
          <Button
            icon="trash"
            intent={Intent.DANGER}
            text="Delete my account"
            onClick={() => setOpen(true)}
          />
        )}
      </div>
      <Dialog
        isOpen={open}
        onClose={() => setOpen(false)}
        title="Delete my account"
        icon="trash"
        className="kosh-erasure-dialog"
      >
        <Form<Values>
          onSubmit={onSubmit}
          render={({ handleSubmit }) => (
            <form onSubmit={handleSubmit} noValidate aria-label="Delete my account">
              <DialogBody>
                <p>
                  Your profile, loans, transactions, accounts, imports and their history will be erased{' '}
                  <strong>7 days</strong> from now. Signing in before then cancels it. This cannot be undone
                  afterwards: download your data first if you want to keep it.
                </p>
                <FormErrorCallout />
                <InputGroupField
                  name="password"
                  label="Password"
                  type="password"
                  autoComplete="current-password"
                  autoFocus
                />
                {secondFactorOn ? (
                  <InputGroupField
                    name="code"
                    label="Authentication code"
                    autoComplete="one-time-code"
                    inputMode="numeric"
                  />
                ) : null}
                <InputGroupField name="confirmation" label="Type DELETE to confirm" autoComplete="off" />
              </DialogBody>
              <DialogFooter
                actions={
                  <>
                    <Button text="Cancel" onClick={() => setOpen(false)} />
                    <SubmitButton text="Delete my account" intent={Intent.DANGER} />
                  </>
                }
              />
            </form>
          )}
        />
      </Dialog>
    </Card>
  );
}
