// The positions section's broker forms (issue 19): the password of a Primary API session
// (sent once to connect, kept only in this form's state until then), the broker choice of the
// settings, and the account picker. The password is never written anywhere: no config, no
// storage; the field is emptied as soon as the request leaves.
import { useId, useState, type FormEvent } from 'react';
import { PAPER_BROKER_URL } from '../../../../protocol/broker';
import { useNeedsServerReason } from '../../../../data/offline';

export const PAPER_BROKER_LABEL = 'Simulador (sim://)';

/** The broker as a trader names it. */
export const brokerLabel = (url: string, username: string) => (url === PAPER_BROKER_URL ? PAPER_BROKER_LABEL : `${username ? `${username} en ` : ''}${url}`);

export interface PasswordFormProps {
  url: string;
  username: string;
  busy: boolean;
  problem: string | null;
  onSubmit(password: string): void;
}

/** Asks the password of the section's Primary API broker. */
export function PasswordForm({ url, username, busy, problem, onSubmit }: PasswordFormProps) {
  const offline = useNeedsServerReason();
  const [password, setPassword] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '') return;
    onSubmit(password);
    setPassword('');
  };
  return (
    <form className="vs-pos-login" onSubmit={submit} aria-label="Conectar con el broker">
      <p className="vs-note">
        Ingrese la contraseña de <strong>{username}</strong> en <code>{url}</code>. Se envía una sola vez para conectar y no se guarda.
      </p>
      <div className="vs-pos-login__row">
        <label htmlFor={`${id}-password`}>Contraseña</label>
        <input id={`${id}-password`} type="password" autoComplete="off" value={password} onChange={(event) => setPassword(event.target.value)} />
        <button type="submit" className="button button--primary" disabled={busy || password === '' || offline != null} title={offline ?? undefined}>
          {busy ? 'Conectando…' : 'Conectar'}
        </button>
      </div>
      {problem && (
        <p className="vs-pos-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

export interface BrokerChoice {
  url: string;
  username: string;
  password: string;
  /** For a Primary API broker that does not list the user's accounts. */
  account?: string;
}

export interface BrokerSettingsProps {
  url: string;
  username: string;
  busy: boolean;
  problem: string | null;
  disabledReason: string | null;
  /** Connect this broker (and make it the section's). */
  onConnect(choice: BrokerChoice): void;
}

/** The settings' broker: the paper broker, or a Primary API URL with a user and password. */
export function BrokerSettings({ url, username, busy, problem, disabledReason: reason, onConnect }: BrokerSettingsProps) {
  // Connecting asks the broker through the server (issue 21: off while it cannot be reached).
  const offline = useNeedsServerReason();
  const disabledReason = reason ?? offline;
  const id = useId();
  const [primary, setPrimary] = useState(url !== PAPER_BROKER_URL);
  const [address, setAddress] = useState(url === PAPER_BROKER_URL ? '' : url);
  const [user, setUser] = useState(username);
  const [password, setPassword] = useState('');
  const [account, setAccount] = useState('');
  const missing = primary && (address.trim() === '' || user.trim() === '' || password === '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missing || disabledReason != null) return;
    onConnect(
      primary
        ? { url: address.trim(), username: user.trim(), password, ...(account.trim() ? { account: account.trim() } : {}) }
        : { url: PAPER_BROKER_URL, username: '', password: '' },
    );
    setPassword('');
  };
  return (
    <form className="vs-pos-broker" onSubmit={submit} aria-label="Broker">
      <fieldset>
        <legend>Broker</legend>
        <label>
          <input type="radio" name={`${id}-kind`} checked={!primary} onChange={() => setPrimary(false)} /> {PAPER_BROKER_LABEL}
        </label>
        <label>
          <input type="radio" name={`${id}-kind`} checked={primary} onChange={() => setPrimary(true)} /> Primary API
        </label>
      </fieldset>
      {primary && (
        <div className="vs-pos-broker__fields">
          <label htmlFor={`${id}-url`}>Dirección</label>
          <input
            id={`${id}-url`}
            type="url"
            placeholder="https://api.remarkets.primary.com.ar"
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            maxLength={300}
          />
          <label htmlFor={`${id}-user`}>Usuario</label>
          <input id={`${id}-user`} autoComplete="off" value={user} onChange={(event) => setUser(event.target.value)} maxLength={200} />
          <label htmlFor={`${id}-password`}>Contraseña</label>
          <input id={`${id}-password`} type="password" autoComplete="off" value={password} onChange={(event) => setPassword(event.target.value)} />
          <label htmlFor={`${id}-account`}>Cuenta (si el broker no las lista)</label>
          <input
            id={`${id}-account`}
            autoComplete="off"
            placeholder="REM2747"
            value={account}
            onChange={(event) => setAccount(event.target.value)}
            maxLength={100}
          />
        </div>
      )}
      <div className="vs-pos-broker__buttons">
        <button type="submit" className="button button--primary" disabled={busy || missing || disabledReason != null} title={disabledReason ?? undefined}>
          {busy ? 'Conectando…' : 'Conectar'}
        </button>
        {primary && <span className="vs-note">La contraseña se envía una sola vez para conectar y no se guarda.</span>}
      </div>
      {problem && (
        <p className="vs-pos-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

export interface AccountPickerProps {
  accounts: readonly string[];
  account: string;
  disabledReason: string | null;
  onPick(account: string): void;
}

/** The account of the session the section shows. */
export function AccountPicker({ accounts, account, disabledReason, onPick }: AccountPickerProps) {
  const id = useId();
  const known = accounts.includes(account);
  return (
    <div className="vs-pos-account">
      <label htmlFor={`${id}-account`}>Cuenta</label>
      <select
        id={`${id}-account`}
        value={known ? account : ''}
        disabled={disabledReason != null}
        title={disabledReason ?? undefined}
        onChange={(event) => event.target.value && onPick(event.target.value)}
      >
        <option value="" disabled>
          Elija una cuenta…
        </option>
        {accounts.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
