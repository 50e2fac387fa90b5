import { DioscError } from '@diosc/protocol';
import { jwtVerify } from 'jose';

const SUBJECT = /^[A-Za-z0-9_.@:-]{1,128}$/;

/**
 * A host-signed visitor identity: a JWT (HS256 only) signed with the assistant's identity secret,
 * whose `sub` is the host's own user id. Expiry is required, so a leaked token ages out. The
 * subject is a JSON string of 1–128 plain characters: a number is refused, not read as its digits,
 * so `42` and `"42"` can never become the same user.
 */
export async function verifyIdentity(
  token: string,
  secret: string | undefined,
  nowMs: number,
): Promise<string> {
  if (!secret) throw new DioscError('identity_invalid', 'This assistant does not accept signed identities.');
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'exp'],
      currentDate: new Date(nowMs),
      clockTolerance: 30,
    });
    const subject: unknown = payload.sub;
    if (typeof subject !== 'string' || !SUBJECT.test(subject))
      throw new DioscError('identity_invalid', 'The identity subject is not a plain user id.');
    return subject;
  } catch (error) {
    if (DioscError.isInstance(error)) throw error;
    throw new DioscError('identity_invalid', 'The signed visitor identity could not be verified.');
  }
}
