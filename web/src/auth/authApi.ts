import type {
  Camel,
  CamelBody,
  ChangePasswordBody,
  EmailBody,
  LoginBody,
  LoginResponse,
  MessageResponse,
  ProfileBody,
  RegisterBody,
  ResetPasswordBody,
  TokenResponse,
  UserResponse,
  VerifyEmailBody,
} from '@kosh/contract';
import { api } from '../api/baseApi';
import type { User } from './user';

type UserAnswer = Camel<UserResponse>;
/** A session, or (two-factor on, issue 32) the pending token of the second step. */
export type LoginAnswer = Camel<LoginResponse>;

export type LoginRequest = CamelBody<LoginBody, { email: string; password: string; rememberMe: boolean }>;
export type RegisterRequest = CamelBody<
  RegisterBody,
  { firstName: string; lastName: string; email: string; password: string }
>;
export type ProfileRequest = CamelBody<ProfileBody, { firstName: string; lastName: string; email: string }>;
type EmailRequest = CamelBody<EmailBody, { email: string }>;

/** Spec section 7, Auth. Bodies are written in camelCase; the base query sends snake_case. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginAnswer, LoginRequest>({
      extraOptions: { errorFallback: 'Login failed' },
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    register: build.mutation<MessageResponse, RegisterRequest>({
      extraOptions: { errorFallback: 'Registration failed' },
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
    }),
    verifyEmail: build.mutation<LoginAnswer, CamelBody<VerifyEmailBody, { token: string }>>({
      extraOptions: { errorFallback: 'Email verification failed' },
      query: (body) => ({ url: '/auth/verify-email', method: 'POST', body }),
    }),
    resendVerification: build.mutation<MessageResponse, EmailRequest>({
      extraOptions: { errorFallback: 'Failed to resend verification email' },
      query: (body) => ({ url: '/auth/resend-verification', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<MessageResponse, EmailRequest>({
      extraOptions: { errorFallback: 'Failed to send reset link' },
      query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<
      MessageResponse,
      CamelBody<ResetPasswordBody, { token: string; password: string }>
    >({
      extraOptions: { errorFallback: 'Password reset failed' },
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
    getProfile: build.query<User, void>({
      query: () => '/auth/profile',
      transformResponse: (answer: UserAnswer) => answer.data.user,
      providesTags: ['User'],
    }),
    updateProfile: build.mutation<UserAnswer, ProfileRequest>({
      extraOptions: { errorFallback: 'Failed to update profile' },
      query: (body) => ({ url: '/auth/profile', method: 'PUT', body }),
      invalidatesTags: ['User'],
    }),
    changePassword: build.mutation<
      Camel<TokenResponse>,
      CamelBody<ChangePasswordBody, { currentPassword: string; newPassword: string }>
    >({
      extraOptions: { errorFallback: 'Failed to change password' },
      query: (body) => ({ url: '/auth/change-password', method: 'PUT', body }),
    }),
    uploadProfilePicture: build.mutation<UserAnswer, { profilePicture: string }>({
      extraOptions: { errorFallback: 'Failed to upload profile picture' },
      query: (body) => ({ url: '/auth/profile-picture', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    deleteProfilePicture: build.mutation<UserAnswer, void>({
      query: () => ({ url: '/auth/profile-picture', method: 'DELETE' }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useVerifyEmailMutation,
  useResendVerificationMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useGetProfileQuery,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useUploadProfilePictureMutation,
  useDeleteProfilePictureMutation,
} = authApi;
