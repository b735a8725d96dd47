// The Usuario modal of the Usuarios page: create an account (username, names, role, a
// password) or change one (names, role, active, a new password). As the spec's modals do, a
// refusal of the server (a username taken, the last active admin demoted or disabled, a bad
// field) is shown in red in the modal, which stays open; on success it closes.
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../data/api';
import { useNeedsServerReason } from '../../data/offline';
import { useCreateUserMutation, useUpdateUserMutation, type UserChanges } from '../../data/queries/admin';
import type { AdminUser } from '../../protocol/admin';
import type { Role } from '../../protocol/auth';
import { Dialog } from '../../ui/Dialog';
import { showToast } from '../../ui/toast';

export type UserModalRequest = { mode: 'create' } | { mode: 'edit'; user: AdminUser };

interface UserModalProps {
  request: UserModalRequest | null;
  onClose: () => void;
}

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error));

export function UserModal({ request, onClose }: UserModalProps) {
  return (
    <Dialog
      open={request != null}
      onClose={onClose}
      title={request?.mode === 'edit' ? `Editar ${request.user.username}` : 'Nuevo usuario'}
      className="user-modal"
    >
      {/* Keyed by the user, so each opening starts from the user's fields. */}
      {request && <UserForm key={request.mode === 'edit' ? request.user._id : 'new'} request={request} onDone={onClose} />}
    </Dialog>
  );
}

function UserForm({ request, onDone }: { request: UserModalRequest; onDone: () => void }) {
  const editing = request.mode === 'edit' ? request.user : null;
  const id = useId();
  const [username, setUsername] = useState('');
  const [firstName, setFirstName] = useState(editing?.firstName ?? '');
  const [lastName, setLastName] = useState(editing?.lastName ?? '');
  const [role, setRole] = useState<Role>(editing?.role ?? 'user');
  const [active, setActive] = useState(editing ? !editing.disabled : true);
  const [password, setPassword] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const create = useCreateUserMutation();
  const update = useUpdateUserMutation();
  const pending = create.isPending || update.isPending;
  // The server saves it: off while it cannot be reached (also when it went with the modal open).
  const offline = useNeedsServerReason();
  const serverError = create.error ?? update.error;
  const error = localError ?? (serverError ? messageOf(serverError) : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocalError(null);
    create.reset();
    update.reset();
    if (!editing) {
      if (username.trim() === '') return setLocalError('El usuario no puede estar vacío');
      if (password === '') return setLocalError('Ingrese una contraseña');
      create.mutate(
        { username: username.trim(), password, firstName: firstName.trim(), lastName: lastName.trim(), role },
        {
          onSuccess: (user) => {
            showToast(`Usuario ${user.username} creado`, 'success');
            onDone();
          },
        },
      );
      return;
    }
    // Only what changed: disabling or a new password ends the user's sessions, nothing else does.
    const changes: UserChanges = {};
    if (firstName.trim() !== editing.firstName) changes.firstName = firstName.trim();
    if (lastName.trim() !== editing.lastName) changes.lastName = lastName.trim();
    if (role !== editing.role) changes.role = role;
    if (active === editing.disabled) changes.disabled = !active;
    if (password !== '') changes.password = password;
    if (Object.keys(changes).length === 0) return onDone();
    update.mutate(
      { id: editing._id, changes },
      {
        onSuccess: (user) => {
          showToast(`Usuario ${user.username} actualizado`, 'success');
          onDone();
        },
      },
    );
  };

  return (
    <form className="dialog__form user-modal__form" onSubmit={submit} noValidate>
      <div className="dialog__field">
        <label className="dialog__label" htmlFor={`${id}-username`}>
          Usuario
        </label>
        {editing ? (
          <input id={`${id}-username`} value={editing.username} readOnly aria-readonly="true" />
        ) : (
          <input id={`${id}-username`} value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" autoFocus required />
        )}
      </div>
      <div className="user-modal__row">
        <div className="dialog__field">
          <label className="dialog__label" htmlFor={`${id}-first`}>
            Nombre
          </label>
          <input id={`${id}-first`} value={firstName} onChange={(e) => setFirstName(e.target.value)} autoComplete="off" autoFocus={editing != null} />
        </div>
        <div className="dialog__field">
          <label className="dialog__label" htmlFor={`${id}-last`}>
            Apellido
          </label>
          <input id={`${id}-last`} value={lastName} onChange={(e) => setLastName(e.target.value)} autoComplete="off" />
        </div>
      </div>
      <div className="user-modal__row">
        <div className="dialog__field">
          <label className="dialog__label" htmlFor={`${id}-role`}>
            Rol
          </label>
          <select id={`${id}-role`} className="admin-select" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="user">Usuario</option>
            <option value="admin">Administrador</option>
          </select>
        </div>
        {editing && (
          <div className="dialog__field user-modal__check">
            <label>
              <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> Activo
            </label>
            {!active && !editing.disabled && <span className="user-modal__hint">Sus sesiones abiertas terminan al guardar.</span>}
          </div>
        )}
      </div>
      <div className="dialog__field">
        <label className="dialog__label" htmlFor={`${id}-password`}>
          {editing ? 'Nueva contraseña' : 'Contraseña'}
        </label>
        <input
          id={`${id}-password`}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
          aria-describedby={`${id}-password-hint`}
        />
        <span id={`${id}-password-hint`} className="user-modal__hint">
          {editing ? 'Vacía: la contraseña no cambia. Una nueva cierra las sesiones del usuario.' : 'Al menos 8 caracteres.'}
        </span>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onDone}>
          Cancelar
        </button>
        <button type="submit" className="button button--primary" disabled={pending || offline != null} title={offline ?? undefined}>
          {pending ? 'Guardando…' : 'Guardar'}
        </button>
      </div>
    </form>
  );
}
