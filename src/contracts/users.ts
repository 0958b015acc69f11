import { Type } from 'typebox';

const Email = Type.String({ format: 'email', maxLength: 254 });
const Handle = Type.Union([Type.String({ maxLength: 100 }), Type.Null()], { description: '"" or null clears it' });

export const ProfileBody = Type.Object({
  email: Type.Optional(Type.Union([Email, Type.Literal('')], { description: '"" clears the address' })),
  telegram: Type.Optional(Handle),
  discord: Type.Optional(Handle),
  notifyOnOfferReceived: Type.Optional(Type.Boolean()),
  notifyOnListingSold: Type.Optional(Type.Boolean()),
  notifyOnExpiry: Type.Optional(Type.Boolean({ description: 'expiry alerts of owned and watched names also by e-mail (to a verified address)' })),
  minOfferThreshold: Type.Optional(Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 1e12 })], { description: 'in ETH; null: no threshold' })),
}, { additionalProperties: false });

export const EmailBody = Type.Object({ email: Email });
