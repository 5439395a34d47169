import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useReturnFocus } from '../app/useReturnFocus';
import { formatMoney } from '../format';
import { toast } from '../toaster';
import { type Account, useDeleteAccountMutation } from './accountsApi';

type Props = { account: Account; onClose: () => void };

/** 'Delete Account': only an account without transactions or transfers (the server answers 409 otherwise). */
export function DeleteAccountDialog({ account, onClose }: Props) {
  useReturnFocus();
  const [remove, { isLoading }] = useDeleteAccountMutation();
  const confirm = async () => {
    const result = await remove(account.id);
    if ('error' in result) return;
    toast.success('Account deleted successfully!');
    onClose();
  };
  return (
    <Dialog isOpen onClose={onClose} title="Delete Account" icon="trash">
      <DialogBody>
        <Callout intent="warning" icon="warning-sign">
          This action cannot be undone.
        </Callout>
        <p style={{ marginTop: 12 }}>
          Delete the account <strong>{account.name}</strong> (opening balance{' '}
          {formatMoney(account.opening_balance)})?
        </p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={isLoading} />
            <Button intent="danger" text="Delete Account" loading={isLoading} onClick={confirm} />
          </>
        }
      />
    </Dialog>
  );
}
