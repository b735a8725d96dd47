// Conectar una sesión de broker, on the Posiciones page: the paper broker (`sim://`, no
// user nor password) or a Primary API URL with its user and password, and optionally the
// account (for a broker that does not list the user's accounts). The password goes with
// the one request that connects (through the worker) and is emptied from the form as soon as
// it leaves: it is stored nowhere. The server's refusal is shown under the form.
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../data/api';
import { isPaperBroker, type BrokerSession } from '../../data/positions';
import { useConnectBrokerMutation } from '../../data/queries/adminPositions';
import { PAPER_BROKER_URL } from '../../protocol/broker';
import { showToast } from '../../ui/toast';
import { useNeedsServerReason } from '../../data/offline';

const messageOf = (error: unknown) =>
  error instanceof ApiError
    ? error.message
    : typeof (error as { message?: unknown })?.message === 'string'
      ? (error as { message: string }).message
      : String(error);

export function BrokerConnectForm({ onConnected }: { onConnected: (session: BrokerSession) => void }) {
  const offline = useNeedsServerReason();
  const id = useId();
  const [url, setUrl] = useState(PAPER_BROKER_URL);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [account, setAccount] = useState('');
  const connect = useConnectBrokerMutation();
  const paper = isPaperBroker(url);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate(
      { url, username: paper ? '' : username, password: paper ? '' : password, account: paper ? '' : account },
      {
        onSuccess: (session) => {
          showToast(`Sesión conectada: ${session.accounts.length} cuenta${session.accounts.length === 1 ? '' : 's'}`, 'success');
          onConnected(session);
        },
      },
    );
    setPassword('');
  };

  return (
    <form className="card pos-admin-connect" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Conectar una sesión</h2>
      <p className="pos-admin-muted">
        <code>{PAPER_BROKER_URL}</code> es el broker de práctica (una cuenta por usuario). Una dirección de la Primary API pide usuario y contraseña: la
        contraseña se envía una sola vez para conectar y no se guarda.
      </p>
      <div className="pos-admin-connect__fields">
        <div className="dialog__field">
          <label className="dialog__label" htmlFor={`${id}-url`}>
            Broker
          </label>
          <input id={`${id}-url`} value={url} onChange={(e) => setUrl(e.target.value)} list={`${id}-brokers`} autoComplete="off" spellCheck={false} />
          <datalist id={`${id}-brokers`}>
            <option value={PAPER_BROKER_URL}>Simulador</option>
            <option value="https://api.remarkets.primary.com.ar">reMarkets</option>
            <option value="https://api.primary.com.ar">Primary</option>
          </datalist>
        </div>
        <div className="dialog__field">
          <label className="dialog__label" htmlFor={`${id}-user`}>
            Usuario del broker
          </label>
          <input id={`${id}-user`} value={paper ? '' : username} onChange={(e) => setUsername(e.target.value)} disabled={paper} autoComplete="off" />
        </div>
        <div className="dialog__field">
          <label className="dialog__label" htmlFor={`${id}-password`}>
            Contraseña
          </label>
          <input
            id={`${id}-password`}
            type="password"
            value={paper ? '' : password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={paper}
            autoComplete="off"
          />
        </div>
        <div className="dialog__field">
          <label className="dialog__label" htmlFor={`${id}-account`}>
            Cuenta (si el broker no las lista)
          </label>
          <input
            id={`${id}-account`}
            value={paper ? '' : account}
            onChange={(e) => setAccount(e.target.value)}
            disabled={paper}
            placeholder="REM2747"
            maxLength={100}
            autoComplete="off"
          />
        </div>
        <button
          type="submit"
          className="button button--primary"
          disabled={connect.isPending || url.trim() === '' || offline != null}
          title={offline ?? undefined}
        >
          {connect.isPending ? 'Conectando…' : 'Conectar'}
        </button>
      </div>
      {connect.error && (
        <p className="form-error" role="alert">
          {messageOf(connect.error)}
        </p>
      )}
    </form>
  );
}
