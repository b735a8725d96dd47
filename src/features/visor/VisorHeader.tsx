// The visor screen's header (issue 18): emoji, title and colour; for the owner the Visor
// modal (edit), favourite, the Editar / Ver switch, `Público` and the save state; for
// anyone else viewing a public visor, `Clonar`.
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { Emoji } from '../../ui/Emoji';
import { Icon } from '../../ui/Icon';
import { openWorkspaceModal } from '../workspace/modalRequests';
import { shownSaveState, type OutboxState, type SaveState } from './saveStateText';

export interface VisorHeaderProps {
  visorId: string;
  title: string;
  emoji: string;
  color: string;
  /** The server says the signed-in user owns it. */
  owner: boolean;
  fav: boolean;
  isPublic: boolean;
  saveState: SaveState | null;
  /** The worker's outbox: changes kept until the server has them (every tab's, every visor's). */
  outbox: OutboxState;
  /** Why owner controls are off, or null. */
  disabledReason: string | null;
  /** Why controls that need the server (Clonar) are off: offline (issue 21), or null. */
  serverReason?: string | null;
  busy: boolean;
  onToggleFav: () => void;
  onTogglePublic: (value: boolean) => void;
  onClone: () => void;
  /** Edit mode's `Agregar sección` menu. */
  addMenu?: ReactNode;
}

export function VisorHeader(props: VisorHeaderProps) {
  const { visorId, owner, disabledReason } = props;
  return (
    <header className="visor-header card" style={{ ['--visor-color' as string]: props.color }}>
      <span className="visor-header__emoji" aria-hidden="true">
        <Emoji emoji={props.emoji || '📊'} />
      </span>
      <h1 className="visor-header__title">{props.title}</h1>
      {owner && (
        <button
          type="button"
          className="icon-button"
          aria-label="Editar visor"
          title={disabledReason ?? 'Editar título, emoji y color'}
          disabled={disabledReason != null}
          onClick={() => openWorkspaceModal({ kind: 'visor', mode: 'edit', visorId })}
        >
          <Icon name="pencil" />
        </button>
      )}
      {owner && (
        <button
          type="button"
          className={`icon-button visor-header__fav${props.fav ? ' visor-header__fav--on' : ''}`}
          aria-label={props.fav ? 'Remover Favorito' : 'Agregar a Favoritos'}
          aria-pressed={props.fav}
          title={disabledReason ?? (props.fav ? 'Remover Favorito' : 'Agregar a Favoritos')}
          disabled={disabledReason != null}
          onClick={props.onToggleFav}
        >
          <Icon name="star" />
        </button>
      )}
      <span className="visor-header__spacer" />
      {owner && props.saveState && <SaveStatus state={props.saveState} outbox={props.outbox} />}
      {props.addMenu}
      {owner && (
        <nav className="visor-mode" aria-label="Modo">
          <NavLink to={paths['visor-modo-edicion'](visorId)} className="visor-mode__link" end>
            Editar
          </NavLink>
          <NavLink to={paths['visor-modo-publico'](visorId)} className="visor-mode__link" end>
            Ver
          </NavLink>
        </nav>
      )}
      {owner && (
        <label className="visor-header__public" title={disabledReason ?? 'Cualquier usuario con el enlace puede verlo'}>
          <input
            type="checkbox"
            role="switch"
            checked={props.isPublic}
            disabled={disabledReason != null || props.busy}
            onChange={(event) => props.onTogglePublic(event.target.checked)}
          />
          Público
        </label>
      )}
      {!owner && props.isPublic && (
        <button
          type="button"
          className="button button--primary"
          title={disabledReason ?? props.serverReason ?? 'Copiar este visor a su espacio de trabajo'}
          disabled={disabledReason != null || props.serverReason != null || props.busy}
          onClick={props.onClone}
        >
          Clonar
        </button>
      )}
      {disabledReason != null && <p className="visor-header__reason">{disabledReason}</p>}
    </header>
  );
}

function SaveStatus({ state, outbox }: { state: SaveState; outbox: OutboxState }) {
  const shown = shownSaveState(state, outbox);
  return (
    <span className={`visor-header__save visor-header__save--${shown.kind}`} role="status">
      {shown.text}
    </span>
  );
}
