import { Button, NonIdealState } from '@blueprintjs/core';
import { useLocation } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';

/** A writing screen opened in audit mode (a bookmark, a typed address): nothing to fill in. */
export function ReadOnlyNotice({ title, back }: { title: string; back: string }) {
  const [, navigate] = useLocation();
  return (
    <>
      <PageHeader title={title} />
      <NonIdealState
        icon="lock"
        title="Read-only"
        description="You are viewing someone else's account: nothing can be changed here."
        action={<Button icon="arrow-left" text="Back" onClick={() => navigate(back)} />}
      />
    </>
  );
}
