import { useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router-dom';
import { ApiError } from '../../data/api';
import { useNeedsServerReason } from '../../data/offline';
import { useChangePasswordMutation, useUpdateProfileMutation } from '../../data/queries/profile';
import { useCurrentUser } from '../auth/useCurrentUser';
import { showToast } from '../../ui/toast';

function messageOf(error: Error): string {
  return error instanceof ApiError ? error.message : String(error);
}

/** config-profile: the signed-in user's names and password (GET|PUT /api/profile, PUT /api/profile/password). */
export function ProfilePage() {
  const user = useCurrentUser();
  // Both forms are saved by the server: off while it cannot be reached, saying why (issue 21).
  const offline = useNeedsServerReason();
  const revalidator = useRevalidator();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const updateProfile = useUpdateProfileMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const changePassword = useChangePasswordMutation();
  const namesError = updateProfile.error ? messageOf(updateProfile.error) : null;
  const passwordError = mismatch ? 'Las contraseñas no coinciden' : changePassword.error ? messageOf(changePassword.error) : null;

  const saveNames = (event: FormEvent) => {
    event.preventDefault();
    updateProfile.mutate(
      { firstName, lastName },
      {
        onSuccess: () => {
          showToast('Perfil actualizado', 'success');
          void revalidator.revalidate(); // the header shows the new names
        },
      },
    );
  };

  const savePassword = (event: FormEvent) => {
    event.preventDefault();
    // A mismatch is told alone: the last answer of the server no longer applies.
    changePassword.reset();
    const mismatched = next !== repeat;
    setMismatch(mismatched);
    if (mismatched) return;
    changePassword.mutate(
      { current, next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setRepeat('');
          showToast('Contraseña cambiada', 'success');
        },
      },
    );
  };

  return (
    <section className="page profile">
      <h1>Perfil</h1>
      <p className="page__lead">{user.username}</p>
      <div className="profile__grid">
        <form className="card form-card" onSubmit={saveNames} aria-labelledby="profile-names">
          <h2 id="profile-names">Datos personales</h2>
          <label htmlFor="profile-first">Nombre</label>
          <input id="profile-first" value={firstName} onChange={(e) => setFirstName(e.target.value)} autoComplete="given-name" />
          <label htmlFor="profile-last">Apellido</label>
          <input id="profile-last" value={lastName} onChange={(e) => setLastName(e.target.value)} autoComplete="family-name" />
          {namesError && (
            <p className="form-error" role="alert">
              {namesError}
            </p>
          )}
          <button type="submit" className="button button--primary" disabled={updateProfile.isPending || offline != null} title={offline ?? undefined}>
            Guardar
          </button>
        </form>
        <form className="card form-card" onSubmit={savePassword} aria-labelledby="profile-password">
          <h2 id="profile-password">Cambiar contraseña</h2>
          <label htmlFor="profile-current">Contraseña actual</label>
          <input id="profile-current" type="password" value={current} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />
          <label htmlFor="profile-next">Nueva contraseña</label>
          <input id="profile-next" type="password" value={next} onChange={(e) => setNext(e.target.value)} autoComplete="new-password" />
          <label htmlFor="profile-repeat">Repetir la nueva contraseña</label>
          <input id="profile-repeat" type="password" value={repeat} onChange={(e) => setRepeat(e.target.value)} autoComplete="new-password" />
          {passwordError && (
            <p className="form-error" role="alert">
              {passwordError}
            </p>
          )}
          <button type="submit" className="button button--primary" disabled={changePassword.isPending || offline != null} title={offline ?? undefined}>
            Cambiar contraseña
          </button>
        </form>
      </div>
    </section>
  );
}
