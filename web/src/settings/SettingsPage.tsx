import { Alert, Button, Callout, Card, H2, Intent, Switch } from '@blueprintjs/core';
import { useState } from 'react';
import { PageHeader } from '../app/layout/PageHeader';
import { useAppDispatch, useAppSelector } from '../app/store';
import { type Settings, type SettingToggle, settingToggled } from './settingsSlice';

type Row = SettingToggle & { label: string; description: string };

const sections: { title: string; rows: Row[] }[] = [
  {
    title: 'Notifications',
    rows: [
      { group: 'notifications', key: 'email', label: 'Email notifications', description: 'Updates by email' },
      {
        group: 'notifications',
        key: 'push',
        label: 'Push notifications',
        description: 'Alerts in your browser',
      },
      {
        group: 'notifications',
        key: 'sms',
        label: 'SMS notifications',
        description: 'Text messages to your phone',
      },
      {
        group: 'notifications',
        key: 'loanReminders',
        label: 'Loan reminders',
        description: 'A reminder before each EMI is due',
      },
      {
        group: 'notifications',
        key: 'paymentAlerts',
        label: 'Payment alerts',
        description: 'When a payment is recorded',
      },
    ],
  },
  {
    title: 'Security',
    rows: [
      {
        group: 'security',
        key: 'twoFactor',
        label: 'Two-factor authentication',
        description: 'A second step when signing in',
      },
      {
        group: 'security',
        key: 'sessionTimeout',
        label: 'Session timeout',
        description: 'Sign out after a period of inactivity',
      },
      {
        group: 'security',
        key: 'deviceTracking',
        label: 'Device tracking',
        description: 'Remember the devices you sign in from',
      },
    ],
  },
  {
    title: 'Appearance',
    rows: [
      { group: 'appearance', key: 'darkMode', label: 'Dark mode', description: 'Use the dark theme' },
      { group: 'appearance', key: 'compactView', label: 'Compact view', description: 'Denser tables' },
    ],
  },
  {
    title: 'Privacy',
    rows: [
      {
        group: 'privacy',
        key: 'dataSharing',
        label: 'Data sharing',
        description: 'Share anonymised data with partners',
      },
      {
        group: 'privacy',
        key: 'analytics',
        label: 'Analytics',
        description: 'Help improve Kosh with usage data',
      },
    ],
  },
];

function isOn(settings: Settings, { group, key }: SettingToggle): boolean {
  return (settings[group] as Record<string, boolean>)[key as string] ?? false;
}

/** Spec section 2, /settings: everything stays on this device; nothing is sent to a server. */
export function SettingsPage() {
  const settings = useAppSelector((state) => state.settings);
  const dispatch = useAppDispatch();
  const [saved, setSaved] = useState(false);

  return (
    <div className="kosh-narrow-page">
      <PageHeader
        title="Settings"
        subtitle="Preferences for this device"
        actions={
          <Button icon="arrow-left" variant="minimal" onClick={() => window.history.back()} text="Back" />
        }
      />
      <Callout intent={Intent.PRIMARY} icon="info-sign" className="kosh-settings-note">
        Settings are saved automatically on this device. Some changes may need a page refresh or signing in
        again.
      </Callout>
      {sections.map((section) => (
        <Card key={section.title} className="kosh-settings-section">
          <H2 className="kosh-card-title">{section.title}</H2>
          {section.rows.map((row) => (
            <Switch
              key={`${row.group}.${String(row.key)}`}
              className="kosh-setting"
              role="switch"
              alignIndicator="end"
              large
              checked={isOn(settings, row)}
              onChange={() => dispatch(settingToggled({ group: row.group, key: row.key } as SettingToggle))}
              labelElement={
                <span className="kosh-setting-label">
                  <strong>{row.label}</strong>
                  <span className="kosh-muted">{row.description}</span>
                </span>
              }
            />
          ))}
        </Card>
      ))}
      <div className="kosh-form-actions">
        <Button
          intent={Intent.PRIMARY}
          icon="floppy-disk"
          onClick={() => setSaved(true)}
          text="Save Settings"
        />
      </div>
      <Alert isOpen={saved} onClose={() => setSaved(false)} icon="tick-circle" intent={Intent.SUCCESS}>
        <p>Settings saved successfully!</p>
      </Alert>
    </div>
  );
}
