// The token check of the route guards (spec section 2): the guards of one navigation share one
// check; a later navigation or revalidation gets its own, even while an earlier check is on its
// way. Before, any check in flight was shared: a navigation started during a revalidation's check
// took that older answer (the e2e "progress bar" flake of navigation.spec.ts).
import { describe, expect, it } from 'vitest';
import { oneCheckPerNavigation } from './navigationCheck';

/** A check the test answers: each call is kept with the token it asked about. */
function fakeChecks() {
  const asked: { token: string; answer: (user: string) => void }[] = [];
  const check = (token: string) => new Promise<string>((resolve) => asked.push({ token, answer: resolve }));
  return { asked, check };
}

/** Whether `promise` has settled once every queued callback has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('oneCheckPerNavigation', () => {
  it('shares one check among the guards of one navigation', async () => {
    const { asked, check } = fakeChecks();
    const checkFor = oneCheckPerNavigation(check);
    const navigation = {};
    const session = checkFor('tok', navigation);
    const admin = checkFor('tok', navigation);
    expect(asked).toHaveLength(1);
    asked[0]!.answer('demo');
    expect(await session).toBe('demo');
    expect(await admin).toBe('demo');
  });

  it('gives a navigation a check of its own while an earlier one is on its way, and waits for it', async () => {
    const { asked, check } = fakeChecks();
    const checkFor = oneCheckPerNavigation(check);
    const revalidation = checkFor('tok', {});
    const navigation = checkFor('tok', {});
    expect(asked.map((call) => call.token)).toEqual(['tok', 'tok']);
    // The earlier check answering does not settle the navigation's.
    asked[0]!.answer('demo');
    expect(await revalidation).toBe('demo');
    expect(await settled(navigation)).toBe(false);
    asked[1]!.answer('demo again');
    expect(await navigation).toBe('demo again');
  });

  it('asks again for the same navigation once its check answered, and for another token', async () => {
    const { asked, check } = fakeChecks();
    const checkFor = oneCheckPerNavigation(check);
    const navigation = {};
    const first = checkFor('tok', navigation);
    asked[0]!.answer('demo');
    await first;
    const again = checkFor('tok', navigation);
    const other = checkFor('tok-2', navigation);
    expect(asked.map((call) => call.token)).toEqual(['tok', 'tok', 'tok-2']);
    asked[1]!.answer('demo');
    asked[2]!.answer('admin');
    expect(await again).toBe('demo');
    expect(await other).toBe('admin');
  });
});
