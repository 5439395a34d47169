import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import type { SubmissionErrors } from 'final-form';
import { useState } from 'react';
import { Form } from 'react-final-form';
import { isApiError } from '../api/apiError';
import { useReturnFocus } from '../app/useReturnFocus';
import { FormErrorCallout, HTMLSelectField, InputGroupField, toWireSubmissionErrors } from '../forms';
import { useSubmissionKey } from '../forms/useSubmissionKey';
import { toast } from '../toaster';
import {
  type Category,
  type CategoryKind,
  categoryLabel,
  useCreateCategoryMutation,
  useDeleteCategoryMutation,
  useMergeCategoryMutation,
  useUpdateCategoryMutation,
} from './categoriesApi';

type Values = { name: string; kind: CategoryKind; parent_id: string };
const FIELDS = ['name', 'kind', 'parent_id'];

const validate = (values: Values) => {
  const name = values.name?.trim() ?? '';
  if (name === '') return { name: 'Name is required' };
  if ([...name].length > 60) return { name: 'Name must not exceed 60 characters' };
  return {};
};

type EditProps = {
  all: readonly Category[];
  /** The category edited, or null for a new one. */
  editing: Category | null;
  /** A new category's kind and parent. */
  kind: CategoryKind;
  parentId?: string;
  onClose: () => void;
};

/** 'Add Category' / 'Edit Category': its name and where it hangs (top level, or under a top-level one of its kind). */
export function CategoryDialog({ all, editing, kind, parentId = '', onClose }: EditProps) {
  useReturnFocus();
  const [create] = useCreateCategoryMutation();
  const [update] = useUpdateCategoryMutation();
  const submission = useSubmissionKey();
  const hasChildren = editing ? all.some((c) => c.parent_id === editing.id) : false;

  const save = async (values: Values): Promise<SubmissionErrors | undefined> => {
    const parent = values.parent_id || null;
    const result = editing
      ? await update({ id: editing.id, body: { name: values.name.trim(), parent_id: parent } })
      : await (() => {
          const body = { name: values.name.trim(), kind: values.kind, parent_id: parent };
          return create({ body, idempotencyKey: submission.keyFor(body) });
        })();
    if ('error' in result) {
      return toWireSubmissionErrors(
        result.error,
        FIELDS,
        editing ? 'Failed to update category' : 'Failed to add category',
      );
    }
    submission.succeeded();
    toast.success(editing ? 'Category updated' : 'Category added');
    onClose();
    return undefined;
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={editing ? 'Edit Category' : 'Add Category'}
      icon={editing ? 'edit' : 'add'}
    >
      <Form<Values>
        onSubmit={save}
        validate={validate}
        initialValues={{
          name: editing?.name ?? '',
          kind: editing?.kind ?? kind,
          parent_id: editing ? (editing.parent_id ?? '') : parentId,
        }}
        render={({ handleSubmit, submitting, values }) => {
          const parents = all.filter(
            (c) => c.kind === values.kind && c.parent_id === null && c.id !== editing?.id && !c.system,
          );
          return (
            <form onSubmit={handleSubmit} noValidate>
              <DialogBody>
                <FormErrorCallout />
                <InputGroupField name="name" label="Name" placeholder="e.g. Pets" autoFocus />
                {editing ? null : (
                  <HTMLSelectField
                    name="kind"
                    label="Kind"
                    options={[
                      { value: 'expense', label: 'Expense' },
                      { value: 'income', label: 'Income' },
                    ]}
                  />
                )}
                <HTMLSelectField
                  name="parent_id"
                  label="Under"
                  disabled={hasChildren}
                  helperText={hasChildren ? 'It has subcategories, so it stays at the top level' : undefined}
                  options={[
                    { value: '', label: 'Top level' },
                    ...parents.map((c) => ({ value: c.id, label: c.name })),
                  ]}
                />
              </DialogBody>
              <DialogFooter
                actions={
                  <>
                    <Button text="Cancel" onClick={onClose} disabled={submitting} />
                    <Button
                      type="submit"
                      intent="primary"
                      loading={submitting}
                      text={editing ? 'Save' : 'Add Category'}
                    />
                  </>
                }
              />
            </form>
          );
        }}
      />
    </Dialog>
  );
}

type RemoveProps = {
  all: readonly Category[];
  category: Category;
  mode: 'merge' | 'delete';
  onClose: () => void;
};

/**
 * 'Merge Category' / 'Delete Category': its transactions move to the category chosen (same kind),
 * or, on a delete, to none. One event moves them all.
 */
export function RemoveCategoryDialog({ all, category, mode, onClose }: RemoveProps) {
  useReturnFocus();
  const [merge, merging] = useMergeCategoryMutation();
  const [remove, deleting] = useDeleteCategoryMutation();
  const targets = all.filter((c) => c.kind === category.kind && c.id !== category.id);
  const [target, setTarget] = useState(mode === 'merge' ? (targets[0]?.id ?? '') : '');
  const [error, setError] = useState<string | null>(null);
  const busy = merging.isLoading || deleting.isLoading;
  const count = category.transaction_count;

  const confirm = async () => {
    setError(null);
    const result =
      mode === 'merge'
        ? await merge({ id: category.id, intoId: target })
        : await remove({ id: category.id, moveTo: target || null });
    if ('error' in result) {
      setError(
        isApiError(result.error) ? (result.error.errors[0]?.message ?? result.error.message) : 'Failed',
      );
      return;
    }
    toast.success(mode === 'merge' ? 'Categories merged' : 'Category deleted');
    onClose();
  };

  const title = mode === 'merge' ? 'Merge Category' : 'Delete Category';
  return (
    <Dialog isOpen onClose={onClose} title={title} icon={mode === 'merge' ? 'git-merge' : 'trash'}>
      <DialogBody>
        {error ? (
          <Callout intent="danger" className="kosh-panel">
            {error}
          </Callout>
        ) : null}
        <p>
          {mode === 'merge' ? 'Merge' : 'Delete'} <strong>{categoryLabel(category, all)}</strong>
          {count > 0
            ? `: its ${count} transaction${count === 1 ? '' : 's'} move to`
            : '. Its transactions move to'}
        </p>
        <FormGroup label="Move transactions to" labelFor="kosh-move-to">
          <HTMLSelect
            id="kosh-move-to"
            fill
            value={target}
            onChange={(e) => setTarget(e.currentTarget.value)}
            options={[
              ...(mode === 'delete' ? [{ value: '', label: 'No category' }] : []),
              ...targets.map((c) => ({ value: c.id, label: categoryLabel(c, all) })),
            ]}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancel" onClick={onClose} disabled={busy} />
            <Button
              intent={mode === 'merge' ? 'primary' : 'danger'}
              text={title}
              loading={busy}
              disabled={mode === 'merge' && target === ''}
              onClick={confirm}
            />
          </>
        }
      />
    </Dialog>
  );
}
