import { expect, type Locator, type Page } from '@playwright/test';

export class ProfilePage {
  readonly heading: Locator;
  readonly firstName: Locator;
  readonly lastName: Locator;
  readonly email: Locator;
  readonly editProfile: Locator;
  readonly updateProfile: Locator;
  readonly cancel: Locator;
  readonly changePicture: Locator;
  readonly pictureFile: Locator;
  readonly memberSince: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Profile', exact: true });
    this.firstName = page.getByLabel('First Name');
    this.lastName = page.getByLabel('Last Name');
    this.email = page.getByLabel('Email', { exact: true });
    this.editProfile = page.getByRole('button', { name: 'Edit Profile' });
    this.updateProfile = page.getByRole('button', { name: 'Update Profile' });
    this.cancel = page.getByRole('button', { name: 'Cancel' });
    this.changePicture = page.getByRole('button', { name: 'Change profile picture' });
    this.pictureFile = page.getByLabel('Profile picture file');
    this.memberSince = page.getByText(/^Member since /);
  }

  async goto(): Promise<void> {
    await this.page.goto('/profile');
    await expect(this.heading).toBeVisible();
  }
}
