import { Form, useActionData, useNavigation } from 'react-router-dom';
import { useTabNeedsServerReason } from '../../data/reachability';
import type { SignInActionData } from './signInAction';

export function SignInPage() {
  const result = useActionData() as SignInActionData | undefined;
  const submitting = useNavigation().state === 'submitting';
  // Signing in needs the server: off while this tab cannot reach it, saying why (issue 21), on
  // again when it answers. There is no data worker yet: the tab asks by itself (reachability.ts).
  const offline = useTabNeedsServerReason();

  return (
    <section className="signin" aria-labelledby="signin-title">
      <div className="signin__brand" aria-hidden="true">
        <img src="/favicon.svg" alt="" width="48" height="48" />
      </div>
      <h1 id="signin-title">Visores</h1>
      <p className="signin__lead">Ingrese con su usuario para ver sus visores.</p>
      <Form method="post" replace className="signin__form" noValidate>
        <label htmlFor="signin-username">Usuario</label>
        <input
          id="signin-username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          aria-invalid={result?.field === 'username'}
        />
        <label htmlFor="signin-password">Contraseña</label>
        <input id="signin-password" name="password" type="password" autoComplete="current-password" aria-invalid={result?.field === 'password'} />
        {result?.error && (
          <p className="form-error" role="alert">
            {result.error}
          </p>
        )}
        <button
          type="submit"
          className="button button--primary"
          disabled={submitting || offline != null}
          title={offline ?? undefined}
          aria-describedby="signin-offline"
        >
          {submitting ? 'Ingresando…' : 'Ingresar'}
        </button>
        <p id="signin-offline" className="signin__offline" role="status">
          {offline}
        </p>
      </Form>
    </section>
  );
}
