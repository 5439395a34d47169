import { validateRegisterForm } from '@kosh/domain';
import { Form } from 'react-final-form';
import { Link, useLocation } from 'wouter';
import {
  FormErrorCallout,
  formValidator,
  InputGroupField,
  PasswordField,
  SubmitButton,
  toSubmissionErrors,
} from '../forms';
import { AuthLayout } from './AuthLayout';
import { useRegisterMutation } from './authApi';

type RegisterValues = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
};

const validate = formValidator<RegisterValues>(validateRegisterForm);

export const REGISTERED_MESSAGE = 'Registration successful! Please check your email to verify your account.';

export function RegisterPage() {
  const [, navigate] = useLocation();
  const [register] = useRegisterMutation();

  const onSubmit = async ({ confirmPassword: _dropped, ...values }: RegisterValues) => {
    try {
      await register({ ...values, email: values.email.trim() }).unwrap();
      navigate(`/login?message=${encodeURIComponent(REGISTERED_MESSAGE)}`, { replace: true });
      return undefined;
    } catch (error) {
      return toSubmissionErrors(
        error,
        ['firstName', 'lastName', 'email', 'password'],
        'Registration failed. Please try again.',
      );
    }
  };

  return (
    <AuthLayout
      title="Create Account"
      subtitle="Keep your loans, EMIs and money in one place"
      footer={
        <>
          Already have an account? <Link href="/login">Sign in</Link>
        </>
      }
    >
      <Form<RegisterValues>
        onSubmit={onSubmit}
        validate={validate}
        initialValues={{ firstName: '', lastName: '', email: '', password: '', confirmPassword: '' }}
        render={({ handleSubmit }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Create account">
            <FormErrorCallout />
            <div className="kosh-form-columns">
              <InputGroupField
                name="firstName"
                label="First Name"
                autoComplete="given-name"
                placeholder="First name"
              />
              <InputGroupField
                name="lastName"
                label="Last Name"
                autoComplete="family-name"
                placeholder="Last name"
              />
            </div>
            <InputGroupField
              name="email"
              label="Email"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              leftIcon="envelope"
            />
            <PasswordField
              name="password"
              label="Password"
              autoComplete="new-password"
              placeholder="At least 6 characters"
              leftIcon="lock"
              helperText="Use upper- and lower-case letters and a number."
            />
            <PasswordField
              name="confirmPassword"
              label="Confirm Password"
              autoComplete="new-password"
              placeholder="Repeat the password"
              leftIcon="lock"
            />
            <SubmitButton size="large" fill text="Create Account" />
          </form>
        )}
      />
    </AuthLayout>
  );
}
