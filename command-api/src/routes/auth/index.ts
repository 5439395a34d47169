import type { FastifyInstance } from 'fastify';
import { passwordRoutes } from './password';
import { profileRoutes } from './profile';
import { registrationRoutes } from './register';
import { sessionRoutes } from './session';

/** Spec section 7 (Auth), in four groups, each its own encapsulated plugin under /api/auth. */
export async function authRoutes(app: FastifyInstance) {
  await app.register(registrationRoutes);
  await app.register(sessionRoutes);
  await app.register(profileRoutes);
  await app.register(passwordRoutes);
}
