import { createListenerMiddleware, createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Spec section 2, /settings: kept on this device only, never sent to the server. */
export const defaultSettings = {
  notifications: { email: true, push: false, sms: false, loanReminders: true, paymentAlerts: true },
  security: { twoFactor: false, sessionTimeout: true, deviceTracking: true },
  appearance: { darkMode: false, compactView: false },
  privacy: { dataSharing: false, analytics: true },
};

export type Settings = typeof defaultSettings;
export type SettingsGroup = keyof Settings;
export type SettingToggle = { [G in SettingsGroup]: { group: G; key: keyof Settings[G] } }[SettingsGroup];

export const SETTINGS_KEY = 'kosh.settings';

/** Stored settings merged over the defaults, so a group added later still gets its default. */
export function loadSettings(): Settings {
  try {
    const stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Partial<Settings>;
    return {
      notifications: { ...defaultSettings.notifications, ...stored.notifications },
      security: { ...defaultSettings.security, ...stored.security },
      appearance: { ...defaultSettings.appearance, ...stored.appearance },
      privacy: { ...defaultSettings.privacy, ...stored.privacy },
    };
  } catch {
    return defaultSettings;
  }
}

export const settingsSlice = createSlice({
  name: 'settings',
  initialState: defaultSettings,
  reducers: {
    settingToggled(state, { payload }: PayloadAction<SettingToggle>) {
      const group = state[payload.group] as Record<string, boolean>;
      const key = payload.key as string;
      group[key] = !group[key];
    },
  },
});

export const { settingToggled } = settingsSlice.actions;

/** "Settings are saved automatically": every change is written at once. */
export const settingsListener = createListenerMiddleware<{ settings: Settings }>();

settingsListener.startListening({
  actionCreator: settingToggled,
  effect: (_action, { getState }) => {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(getState().settings));
  },
});
