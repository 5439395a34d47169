import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useReadOnly } from '../audit/auditMode';
import { formatDate, todayIso } from '../format';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CONTROL_ID = 'kosh-as-of-date';

/**
 * The screen's `?as_of=` (a date, YYYY-MM-DD): null when the screen shows today. Kept in the URL so
 * a reload or a shared link opens the same past; a malformed value is ignored (today).
 */
export function useAsOf(): { asOf: string | null; setAsOf: (date: string | null) => void } {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const value = new URLSearchParams(search).get('as_of');
  const asOf = value && DATE.test(value) ? value : null;
  const setAsOf = (date: string | null) => {
    const params = new URLSearchParams(search);
    if (date) params.set('as_of', date);
    else params.delete('as_of');
    const query = params.toString();
    navigate(query ? `${location}?${query}` : location);
  };
  return { asOf, setAsOf };
}

/** The as-of part of a query arg: nothing at all when live, so live cache keys stay as they were. */
export function asOfArg(asOf: string | null): { asOf?: string } {
  return asOf ? { asOf } : {};
}

/** The `as_of` query parameter for a request, or none. */
export function asOfParams(asOf: string | null | undefined): { as_of?: string } {
  return asOf ? { as_of: asOf } : {};
}

/**
 * 'As of' date control: pick a past date and press View to put the screen in read-only as-of
 * mode. A form, so Enter in the field views it too.
 */
export function AsOfControl({
  asOf,
  onChange,
}: {
  asOf: string | null;
  onChange: (date: string | null) => void;
}) {
  const [typed, setTyped] = useState(asOf ?? '');
  useEffect(() => setTyped(asOf ?? ''), [asOf]);
  const today = todayIso();
  const valid = DATE.test(typed) && typed <= today;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid) onChange(typed === today ? null : typed);
  };
  return (
    <form className="kosh-as-of-control" onSubmit={submit} aria-label="Choose a past date">
      <FormGroup label="As of" labelFor={CONTROL_ID} inline className="kosh-as-of-group">
        <InputGroup
          id={CONTROL_ID}
          type="date"
          max={today}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          aria-describedby="kosh-as-of-help"
        />
      </FormGroup>
      <Button type="submit" icon="history" text="View" disabled={!valid} />
      <span id="kosh-as-of-help" className="kosh-visually-hidden">
        Shows this screen as it was at the end of the chosen day, read-only.
      </span>
    </form>
  );
}

/**
 * The as-of mode's banner: says which past the screen shows, announced politely, with the way back
 * to today (focus then goes to the date control, where the choice was made).
 */
export function AsOfBanner({
  asOf,
  what,
  onToday,
}: {
  asOf: string | null;
  what: string;
  onToday: () => void;
}) {
  const back = useRef(false);
  useEffect(() => {
    if (asOf === null && back.current) {
      back.current = false;
      document.getElementById(CONTROL_ID)?.focus();
    }
  }, [asOf]);
  return (
    <div aria-live="polite" className="kosh-as-of-live">
      {asOf ? (
        <Callout intent="primary" icon="history" className="kosh-as-of-banner" title="Read-only: a past view">
          <p>
            Showing {what} as of {formatDate(asOf)} (end of day, India time). Nothing can be changed here.
          </p>
          <Button
            icon="calendar"
            text="Back to today"
            onClick={() => {
              back.current = true;
              onToday();
            }}
          />
        </Callout>
      ) : null}
    </div>
  );
}

/** A screen's as-of state: the URL value, the control and the banner. */
export function useAsOfMode(what: string) {
  const { asOf, setAsOf } = useAsOf();
  const auditing = useReadOnly();
  return {
    asOf,
    readOnly: asOf !== null || auditing,
    control: <AsOfControl asOf={asOf} onChange={setAsOf} />,
    banner: <AsOfBanner asOf={asOf} what={what} onToday={() => setAsOf(null)} />,
  };
}

/** A link to another as-of screen that stays in the same past. */
export function withAsOf(href: string, asOf: string | null): string {
  return asOf ? `${href}?as_of=${asOf}` : href;
}

/**
 * The arg of a query that is live without one (`useGetLoanStatsQuery()`) and as of a date with one.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: RTK Query spells an optional query arg `void`.
export type OptionalAsOf = string | void;
