import { Type } from 'typebox';

export const VerifyEmailBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 512, description: 'the token from the verification link' }),
});

export const Message = Type.Object({ message: Type.String() });
