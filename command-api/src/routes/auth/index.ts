import type { FastifyInstance } from 'fastify';
import { passwordRoutes } from './password';
import { profileRoutes } from './profile';
import { registrationRoutes } from './register';
import { sessionRoutes } from './session';
import { sessionListRoutes } from './sessions';
import { twoFactorRoutes } from './two-factor';

/** Spec section 7 (Auth), in four groups (and issue 32's two-factor sign-in and sessions), each its own encapsulated plugin under /api/auth. */
export async function authRoutes(app: FastifyInstance) {
  await app.register(registrationRoutes);
  await app.register(sessionRoutes);
  await app.register(profileRoutes);
  await app.register(passwordRoutes);
  await app.register(twoFactorRoutes);
  await app.register(sessionListRoutes);
}
