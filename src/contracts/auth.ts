import { Type } from 'typebox';
import { Address, Timestamp } from './common.js';

export const PublicUser = Type.Object({
  id: Type.Integer(),
  address: Address,
  email: Type.Union([Type.String(), Type.Null()]),
  emailVerified: Type.Boolean(),
  telegram: Type.Union([Type.String(), Type.Null()]),
  discord: Type.Union([Type.String(), Type.Null()]),
  notifyOnOfferReceived: Type.Boolean(),
  notifyOnListingSold: Type.Boolean(),
  notifyOnExpiry: Type.Boolean({ description: 'whether expiry alerts of owned and watched names also come by e-mail (to a verified address)' }),
  minOfferThreshold: Type.Union([Type.Number(), Type.Null()], { description: 'in ETH; offers below it are not worth a notification; null: every offer' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const NonceQuery = Type.Object({
  address: Type.Optional({ ...Address, description: 'when given, the nonce can only sign in this address' }),
});

export const Nonce = Type.Object({
  nonce: Type.String({ description: 'single use; put it in the EIP-4361 message' }),
  expiresAt: Timestamp,
});

export const VerifyBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 8192, description: 'the EIP-4361 message that was signed' }),
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]+$', maxLength: 20000, description: 'personal_sign signature (65 bytes for an EOA)' }),
});

export const Session = Type.Object({
  token: Type.String({ description: 'the access token (same as accessToken)' }),
  accessToken: Type.String({ description: 'JWT; send as `Authorization: Bearer <accessToken>`' }),
  refreshToken: Type.String({ description: 'opaque; single use, rotated by /auth/refresh' }),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer({ description: 'access token lifetime in seconds' }),
  user: PublicUser,
});

export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 10, maxLength: 200 }) });

export const LogoutBody = Type.Union([
  Type.Object({ refreshToken: Type.Optional(Type.String({ minLength: 10, maxLength: 200 })) }),
  Type.Null(),
]);

export const Message = Type.Object({ message: Type.String() });
