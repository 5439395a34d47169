import { Button, Card, H2, Intent, Tag } from '@blueprintjs/core';
import { validateProfile } from '@kosh/domain';
import { useState } from 'react';
import { Form } from 'react-final-form';
import { PageHeader } from '../app/layout/PageHeader';
import { useAppSelector } from '../app/store';
import { AuditorAccessSection } from '../audit/AuditorAccessSection';
import { useUpdateProfileMutation } from '../auth/authApi';
import { displayName, type User } from '../auth/user';
import { FormErrorCallout, formValidator, InputGroupField, SubmitButton, toSubmissionErrors } from '../forms';
import { HistoryExport } from '../history/HistoryExport';
import { toast } from '../toaster';
import { AccountDeletion, ErasureBanner } from './AccountDeletion';
import { NotificationPreferences } from './NotificationPreferences';
import { ProfilePicture } from './ProfilePicture';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';

type ProfileValues = { firstName: string; lastName: string; email: string };

const validate = formValidator<ProfileValues>(validateProfile);

const memberSince = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'long', year: 'numeric' });

function valuesOf(user: User): ProfileValues {
  return { firstName: user.firstName ?? '', lastName: user.lastName ?? '', email: user.email ?? '' };
}

export function ProfilePage() {
  const user = useAppSelector((state) => state.session.user);
  const [editing, setEditing] = useState(false);
  const [updateProfile] = useUpdateProfileMutation();
  if (!user) return null;

  const onSubmit = async (values: ProfileValues) => {
    try {
      const answer = await updateProfile({ ...values, email: values.email.trim() }).unwrap();
      toast.success(answer.message ?? 'Profile updated successfully');
      setEditing(false);
      return undefined;
    } catch (error) {
      return toSubmissionErrors(error, ['firstName', 'lastName', 'email'], 'Failed to update profile');
    }
  };

  return (
    <div className="kosh-narrow-page">
      <PageHeader title="Profile" subtitle="Your name, email and picture" />
      <ErasureBanner />
      <Card className="kosh-profile-header">
        <ProfilePicture user={user} />
        <div>
          <H2 className="kosh-profile-name">{displayName(user)}</H2>
          <p className="kosh-muted">{user.email}</p>
          <div className="kosh-profile-tags">
            <Tag minimal intent={user.emailVerified ? Intent.SUCCESS : Intent.WARNING}>
              {user.emailVerified ? 'Email verified' : 'Email not verified'}
            </Tag>
            <span className="kosh-muted">Member since {memberSince.format(new Date(user.createdAt))}</span>
          </div>
        </div>
      </Card>
      <Card>
        <Form<ProfileValues>
          onSubmit={onSubmit}
          validate={validate}
          initialValues={valuesOf(user)}
          render={({ handleSubmit, form }) => (
            <form onSubmit={handleSubmit} noValidate aria-label="Profile">
              <div className="kosh-card-header">
                <H2 className="kosh-card-title">Personal Information</H2>
                {!editing ? (
                  <Button icon="edit" onClick={() => setEditing(true)} text="Edit Profile" />
                ) : null}
              </div>
              <FormErrorCallout />
              {/* View mode shows the values read-only (readable, selectable) rather than greyed out. */}
              <div className={editing ? undefined : 'kosh-read-only'}>
                <div className="kosh-form-columns">
                  <InputGroupField
                    name="firstName"
                    label="First Name"
                    autoComplete="given-name"
                    readOnly={!editing}
                  />
                  <InputGroupField
                    name="lastName"
                    label="Last Name"
                    autoComplete="family-name"
                    readOnly={!editing}
                  />
                </div>
                <InputGroupField
                  name="email"
                  label="Email"
                  type="email"
                  autoComplete="email"
                  leftIcon="envelope"
                  readOnly={!editing}
                />
              </div>
              {editing ? (
                <div className="kosh-form-actions">
                  <Button
                    text="Cancel"
                    onClick={() => {
                      form.reset(valuesOf(user));
                      setEditing(false);
                    }}
                  />
                  <SubmitButton text="Update Profile" />
                </div>
              ) : null}
            </form>
          )}
        />
      </Card>
      <TwoFactorSection />
      <SessionsSection />
      <NotificationPreferences />
      <HistoryExport />
      <AuditorAccessSection />
      <AccountDeletion />
    </div>
  );
}
