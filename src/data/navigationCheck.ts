// One token check per navigation (spec section 2: the token is checked before each navigation).
// The guards of one navigation share a check: the router gives all the loaders of one navigation
// one Request, which names it. Any other navigation or revalidation gets a check of its own, even
// while an earlier one is still on its way: a navigation that took the answer of a check asked
// before it started (a revalidation's, when the server answered again) would go on without the
// server having been asked for it, and its progress bar would end with that older answer.

/** `check(token)` once per navigation and token; `navigation` is the identity the callers of one navigation share. */
export function oneCheckPerNavigation<T>(check: (token: string) => Promise<T>): (token: string, navigation: object) => Promise<T> {
  let inflight: { token: string; navigation: object; promise: Promise<T> } | null = null;
  return (token, navigation) => {
    if (inflight?.token === token && inflight.navigation === navigation) return inflight.promise;
    const promise = check(token).finally(() => {
      if (inflight?.promise === promise) inflight = null;
    });
    inflight = { token, navigation, promise };
    return promise;
  };
}
