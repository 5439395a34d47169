import { Button, Callout, Card, H3, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { PageHeader } from '../app/layout/PageHeader';
import { TableScroll } from '../ui/TableScroll';
import { CategoryDialog, RemoveCategoryDialog } from './CategoryDialogs';
import { type Category, type CategoryKind, useGetCategoriesQuery } from './categoriesApi';

type Editing =
  | { open: false }
  | { open: true; category: Category | null; kind: CategoryKind; parentId?: string };
type Removing = { category: Category; mode: 'merge' | 'delete' } | null;

const KINDS: readonly { kind: CategoryKind; title: string }[] = [
  { kind: 'expense', title: 'Expense' },
  { kind: 'income', title: 'Income' },
];

/** /categories: the two-level tree of income and expense categories; add, rename, move, merge, delete. */
export function CategoriesPage() {
  const categories = useGetCategoriesQuery();
  const [editing, setEditing] = useState<Editing>({ open: false });
  const [removing, setRemoving] = useState<Removing>(null);
  const all = categories.data ?? [];

  return (
    <>
      <PageHeader
        title="Categories"
        subtitle="Where the money comes from and where it goes"
        actions={
          <Button
            intent="primary"
            icon="add"
            text="Add Category"
            onClick={() => setEditing({ open: true, category: null, kind: 'expense' })}
          />
        }
      />
      {categories.isError ? (
        <Callout intent="danger" className="kosh-panel">
          Failed to load categories
        </Callout>
      ) : null}
      {categories.isLoading ? <Spinner size={24} aria-label="Loading categories" /> : null}
      {categories.data
        ? KINDS.map(({ kind, title }) => (
            <Card key={kind} className="kosh-panel">
              <H3>{title}</H3>
              <TableScroll label={`${title} categories table`}>
                <HTMLTable striped compact className="kosh-category-table" aria-label={`${title} categories`}>
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th className="kosh-num" title="Transactions in the category">
                        Entries
                      </th>
                      <th>Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {all
                      .filter((c) => c.kind === kind)
                      .map((c) => (
                        <tr key={c.id}>
                          <td data-label="Name" className={c.parent_id ? 'kosh-subcategory' : 'kosh-strong'}>
                            {c.parent_id ? <span aria-hidden>↳ </span> : null}
                            {c.name}
                            {c.system ? (
                              <Tag minimal className="kosh-tag-gap" title="Matched EMIs are counted here">
                                System
                              </Tag>
                            ) : null}
                          </td>
                          <td data-label="Entries" className="kosh-num">
                            {c.transaction_count}
                          </td>
                          <td data-label="Actions">
                            {c.system ? null : (
                              <div className="kosh-actions">
                                {c.parent_id === null ? (
                                  <Button
                                    variant="minimal"
                                    size="small"
                                    icon="add"
                                    aria-label={`Add a subcategory to ${c.name}`}
                                    title="Add subcategory"
                                    onClick={() =>
                                      setEditing({ open: true, category: null, kind, parentId: c.id })
                                    }
                                  />
                                ) : null}
                                <Button
                                  variant="minimal"
                                  size="small"
                                  icon="edit"
                                  aria-label={`Rename or move category ${c.name}`}
                                  title="Rename or move"
                                  onClick={() => setEditing({ open: true, category: c, kind })}
                                />
                                <Button
                                  variant="minimal"
                                  size="small"
                                  icon="git-merge"
                                  aria-label={`Merge category ${c.name}`}
                                  title="Merge into another"
                                  onClick={() => setRemoving({ category: c, mode: 'merge' })}
                                />
                                <Button
                                  variant="minimal"
                                  size="small"
                                  icon="trash"
                                  intent="danger"
                                  aria-label={`Delete category ${c.name}`}
                                  title="Delete"
                                  onClick={() => setRemoving({ category: c, mode: 'delete' })}
                                />
                              </div>
                            )}
                          </td>
                        </tr>
                      ))}
                  </tbody>
                </HTMLTable>
              </TableScroll>
            </Card>
          ))
        : null}
      {editing.open ? (
        <CategoryDialog
          all={all}
          editing={editing.category}
          kind={editing.kind}
          parentId={editing.parentId}
          onClose={() => setEditing({ open: false })}
        />
      ) : null}
      {removing ? (
        <RemoveCategoryDialog
          all={all}
          category={removing.category}
          mode={removing.mode}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </>
  );
}
