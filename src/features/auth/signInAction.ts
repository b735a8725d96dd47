import { redirect, type ActionFunctionArgs } from 'react-router-dom';
import { ApiError } from '../../data/api';
import { checkServer } from '../../data/reachability';
import { signIn } from '../../data/session';
import { safeNext } from './sessionRoute';

export interface SignInActionData {
  error: string;
  field?: 'username' | 'password';
}

export async function signInAction({ request }: ActionFunctionArgs): Promise<Response | SignInActionData> {
  const form = await request.formData();
  const username = String(form.get('username') ?? '').trim();
  const password = String(form.get('password') ?? '');
  if (!username) return { error: 'Ingrese su usuario', field: 'username' };
  if (!password) return { error: 'Ingrese su contraseña', field: 'password' };
  try {
    await signIn(username, password);
  } catch (error) {
    // No answer: the server's health is asked, and Ingresar is off until it answers (SignInPage).
    if (error instanceof ApiError && error.isNetwork) void checkServer();
    return { error: error instanceof ApiError ? error.message : 'No se pudo iniciar sesión' };
  }
  return redirect(safeNext(new URL(request.url).searchParams.get('next')));
}
