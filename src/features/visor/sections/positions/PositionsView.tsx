// The positions section (`Posiciones`, issue 19): a broker account's positions marked live,
// its fills newest first, the positions connection's state, and the worker's event log.
//
// Only the visor's owner sees it: positions are private, so a visitor of a public visor is
// told so and asked for no broker login (nothing is connected nor watched for them). The
// owner sees it live in edit and in public mode; the broker and the account are chosen in
// edit mode (the settings, or the picker when none is chosen yet).
import { useState } from 'react';
import { useNeedsServerReason } from '../../../../data/offline';
import { connectBroker } from '../../../../data/positions';
import { useFills, usePositions, usePositionsStatus, type PositionsStatus } from '../../../../data/store';
import { Dialog } from '../../../../ui/Dialog';
import { EventLogEntries } from '../../../quoteBoard/EventLog';
import type { SectionViewProps } from '../types';
import { AccountPicker, BrokerSettings, brokerLabel, PasswordForm, type BrokerChoice } from './BrokerForms';
import { FillsList } from './FillsList';
import { POSITIONS_OFFLINE, POSITIONS_STATE_TEXT, PRIVATE_POSITIONS } from './positionsMessages';
import { positionsConfigOf, readPositionsConfig, type PositionsSettings } from './positionsConfig';
import { PositionsTable } from './PositionsTable';
import { useBrokerAccount } from './useBrokerAccount';
import './positions.css';

function ConnectionState({ status }: { status: PositionsStatus }) {
  return (
    <span className="vs-pos-state" role="status" data-state={status.state} title={status.lastError ?? undefined}>
      <span className="vs-pos-state__dot" aria-hidden="true" />
      Conexión de posiciones: {POSITIONS_STATE_TEXT[status.state]}
    </span>
  );
}

function AccountData({ account }: { account: string }) {
  const snapshot = usePositions(account);
  const fills = useFills(account);
  return (
    <div className="vs-pos-data">
      <section className="vs-pos-block" aria-label={`Posiciones de ${account}`}>
        <h3>Posiciones</h3>
        {snapshot == null ? (
          <p className="vs-empty">Esperando la primera valuación del broker…</p>
        ) : (
          <PositionsTable positions={snapshot.positions} label={`Posiciones de ${account}`} />
        )}
      </section>
      <section className="vs-pos-block" aria-label={`Operaciones de ${account}`}>
        <h3>Operaciones</h3>
        <FillsList fills={fills} label={`Operaciones de ${account}`} />
      </section>
    </div>
  );
}

function OwnerPositions({ section, editable, onConfigChange, settingsOpen, onSettingsClose, disabledReason }: SectionViewProps<'positions'>) {
  const settings = readPositionsConfig(section.config);
  const broker = useBrokerAccount(settings, true);
  const status = usePositionsStatus();
  const [logOpen, setLogOpen] = useState(false);
  const [settingsBusy, setSettingsBusy] = useState(false);
  const [settingsProblem, setSettingsProblem] = useState<string | null>(null);
  const save = (next: PositionsSettings) => onConfigChange(() => positionsConfigOf(next));
  const paper = settings.brokerUrl === 'sim://';

  /** The settings connect a broker and, once it answered, make it the section's (its account kept when the session has it). */
  const connectFromSettings = (choice: BrokerChoice) => {
    setSettingsBusy(true);
    setSettingsProblem(null);
    connectBroker(choice).then(
      (session) => {
        setSettingsBusy(false);
        const account = session.accounts.includes(settings.account) ? settings.account : session.accounts.length === 1 ? session.accounts[0]! : '';
        save({ account, brokerUrl: session.url, username: session.username });
        broker.retry();
      },
      (error: { message?: string }) => {
        setSettingsBusy(false);
        setSettingsProblem(error.message ?? String(error));
      },
    );
  };

  const { session } = broker;
  // Offline, the connection's error is no news: the section says it waits for the connection, and Reintentar why it is off.
  const serverReason = useNeedsServerReason();
  const problem = broker.problem != null && serverReason != null ? POSITIONS_OFFLINE : broker.problem;
  const retryButton = (
    <button type="button" className="button" onClick={broker.retry} disabled={serverReason != null} title={serverReason ?? undefined}>
      Reintentar
    </button>
  );
  const canPick = editable && session != null;
  let body;
  if (session == null && !paper && !broker.connecting) {
    body = (
      <PasswordForm
        url={settings.brokerUrl}
        username={settings.username}
        busy={broker.connecting}
        problem={problem}
        onSubmit={(password) => void broker.connect(password)}
      />
    );
  } else if (session == null) {
    body = problem ? (
      <div className="vs-pos-message">
        <p className="vs-pos-problem" role="alert">
          {problem}
        </p>
        {retryButton}
      </div>
    ) : (
      <p className="vs-empty">Conectando con el broker…</p>
    );
  } else if (settings.account === '' || !session.accounts.includes(settings.account)) {
    body = (
      <div className="vs-pos-message">
        <p className="vs-empty">
          {settings.account === ''
            ? 'Elija la cuenta que muestra esta sección.'
            : `La cuenta ${settings.account} no está en la sesión de broker (${session.accounts.join(', ') || 'sin cuentas'}).`}
          {!editable && ' Se elige en modo edición.'}
        </p>
        {/* With the settings open, their picker is the one (one 'Cuenta' field on screen). */}
        {canPick && !settingsOpen && (
          <AccountPicker
            accounts={session.accounts}
            account={settings.account}
            disabledReason={disabledReason}
            onPick={(account) => save({ ...settings, account })}
          />
        )}
      </div>
    );
  } else if (problem) {
    body = (
      <div className="vs-pos-message">
        <p className="vs-pos-problem" role="alert">
          {problem}
        </p>
        {retryButton}
      </div>
    );
  } else {
    body = <AccountData account={settings.account} />;
  }

  return (
    <div className="vs-positions">
      {editable && settingsOpen && (
        <div className="vs-settings" role="group" aria-label="Configuración de posiciones">
          <div className="vs-settings__head">
            <h3>Broker y cuenta</h3>
            <button type="button" className="button" onClick={onSettingsClose}>
              Cerrar
            </button>
          </div>
          <BrokerSettings
            url={settings.brokerUrl}
            username={settings.username}
            busy={settingsBusy}
            problem={settingsProblem}
            disabledReason={disabledReason}
            onConnect={connectFromSettings}
          />
          {session && (
            <AccountPicker
              accounts={session.accounts}
              account={settings.account}
              disabledReason={disabledReason}
              onPick={(account) => save({ ...settings, account })}
            />
          )}
        </div>
      )}
      <div className="vs-pos-bar">
        <ConnectionState status={status} />
        <span className="vs-pos-bar__account">
          {settings.account ? `Cuenta ${settings.account}` : 'Sin cuenta'} · {brokerLabel(settings.brokerUrl, settings.username)}
        </span>
        <button type="button" className="button" onClick={() => setLogOpen(true)}>
          Registro de eventos
        </button>
      </div>
      {body}
      <Dialog open={logOpen} onClose={() => setLogOpen(false)} title="Registro de eventos" className="vs-pos-log">
        <EventLogEntries active={logOpen} />
        <div className="vs-pos-log__buttons">
          <button type="button" className="button" onClick={() => setLogOpen(false)}>
            Cerrar
          </button>
        </div>
      </Dialog>
    </div>
  );
}

export function PositionsView(props: SectionViewProps<'positions'>) {
  if (!props.owner) {
    return (
      <div className="vs-positions">
        <p className="vs-pos-private">{PRIVATE_POSITIONS}</p>
      </div>
    );
  }
  return <OwnerPositions {...props} />;
}
