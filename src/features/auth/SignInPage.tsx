import { Form, useActionData, useNavigation } from 'react-router-dom';
import type { SignInActionData } from './signInAction';

export function SignInPage() {
  const result = useActionData() as SignInActionData | undefined;
  const submitting = useNavigation().state === 'submitting';

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
        <button type="submit" className="button button--primary" disabled={submitting}>
          {submitting ? 'Ingresando…' : 'Ingresar'}
        </button>
      </Form>
    </section>
  );
}
