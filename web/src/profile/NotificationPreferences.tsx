import { Card, H2, Spinner } from '@blueprintjs/core';
import { NOTIFICATION_MESSAGES } from '@kosh/domain';
import { Form } from 'react-final-form';
import {
  FormErrorCallout,
  HTMLSelectField,
  SubmitButton,
  SwitchField,
  toWireSubmissionErrors,
} from '../forms';
import { useGetNotificationsQuery, useSetNotificationsMutation } from '../recurring/recurringApi';
import { toast } from '../toaster';

type Values = { emi_due: boolean; recurring_due: boolean; budget_crossed: boolean; days_before: string };

const DAY_OPTIONS = Array.from({ length: 31 }, (_, n) => ({
  value: String(n),
  label: n === 0 ? 'On the day' : n === 1 ? '1 day before' : `${n} days before`,
}));

/**
 * Reminder mails (issue 31), kept on the server: each kind off until turned on here, and how
 * many days before the due date. (The spec's /settings page stays local, as the spec says.)
 */
export function NotificationPreferences() {
  const preferences = useGetNotificationsQuery();
  const [save] = useSetNotificationsMutation();
  if (preferences.isLoading) return <Spinner size={24} aria-label="Loading reminder preferences" />;
  const current = preferences.data ?? {
    emi_due: false,
    recurring_due: false,
    budget_crossed: false,
    days_before: 3,
  };
  const onSubmit = async (values: Values) => {
    const result = await save({
      emi_due: values.emi_due,
      recurring_due: values.recurring_due,
      budget_crossed: values.budget_crossed,
      days_before: Number(values.days_before),
    });
    if ('error' in result)
      return toWireSubmissionErrors(
        result.error,
        ['emi_due', 'recurring_due', 'budget_crossed', 'days_before'],
        NOTIFICATION_MESSAGES.daysBefore,
      );
    toast.success('Reminder preferences saved');
    return undefined;
  };
  return (
    <Card>
      <Form<Values>
        onSubmit={onSubmit}
        initialValues={{ ...current, days_before: String(current.days_before) }}
        render={({ handleSubmit }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Reminders by mail">
            <div className="kosh-card-header">
              <H2 className="kosh-card-title">Reminders by mail</H2>
            </div>
            <FormErrorCallout />
            <SwitchField name="emi_due" label="EMI due (not sent for an EMI already marked paid)" />
            <SwitchField name="recurring_due" label="Recurring entry due" />
            <SwitchField name="budget_crossed" label="Budget crossed (once a month per budget)" />
            <HTMLSelectField name="days_before" label="When" options={DAY_OPTIONS} />
            <p className="kosh-muted">Each mail has a link to stop that kind of reminder in one click.</p>
            <div className="kosh-form-actions">
              <SubmitButton text="Save Reminders" />
            </div>
          </form>
        )}
      />
    </Card>
  );
}
