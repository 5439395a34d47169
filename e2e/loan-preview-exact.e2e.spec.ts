import { expect, test } from '@playwright/test';
import { LoanFormPage } from './page-models/loan-form-page';
import { signInThroughUi } from './support/money';
import { captureScreen } from './support/screens';
import { createVerifiedUser } from './support/users';

test('the loan preview rounds the EMI and the first GST from their exact values', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'Kavya');
  await signInThroughUi(page, user);
  const form = new LoanFormPage(page);
  await form.gotoCreate();

  // Exactly ₹8,395.674999…: a float formula shows ₹8,395.68.
  await form.fill({ principal: '960171.84', rate: '0.962', durationIn: 'Months', duration: '120' });
  await expect(form.previewEmi).toHaveText('₹8,395.67');

  // ₹10,77,870 at 10%: the first month's interest is ₹8,982.25, its 18% GST exactly ₹1,616.805.
  await form.fill({ principal: '1077870', rate: '10', durationIn: 'Years', duration: '20', gst: '18' });
  await expect(form.preview.getByRole('row', { name: 'GST on the first EMI' })).toContainText('₹1,616.81');
  await captureScreen(page, 'loan-preview-exact', async () => {
    await expect(form.preview).toContainText('₹1,616.81');
  });
});
