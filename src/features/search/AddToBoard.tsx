// The search detail's «Agregar a un visor»: the user picks one of their visores, then one of its
// quote boards («Cotizaciones» sections); a visor without one is offered a new board holding the
// symbol. A board that has the symbol already says so and offers nothing to add. The change goes
// through the data worker like any edit of the visor (addToVisor.ts): offline it is kept and sent
// when the connection returns.
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useOnline } from '../../data/offline';
import { dataWorker } from '../../data/worker';
import { boardHolds, quoteBoards } from '../../lib/boardAdd';
import { paths } from '../../lib/paths';
import type { OwnVisorRecord } from '../../shared/db';
import { quotesSection } from '../visor/sections/quotes';
import { GRID_COLUMNS, newSectionId } from '../visor/sectionLayout';
import { errorMessage } from '../workspace/workerCalls';
import { addProblem, addToVisor, type AddTarget, type SaveSections } from './addToVisor';

const save: SaveSections = (visorId, request) => dataWorker().saveSecciones(visorId, request);

type Notice = { kind: 'done'; visorId: string; boardId: string; text: string } | { kind: 'problem'; text: string } | { kind: 'error'; text: string };

interface AddToBoardProps {
  /** As the catalogue writes it (the board stores it so). */
  symbol: string;
  /** The user's own visores (undefined while the cache is read). */
  visores: OwnVisorRecord[] | null | undefined;
}

export function AddToBoard({ symbol, visores }: AddToBoardProps) {
  const headingId = useId();
  const online = useOnline();
  const [visorId, setVisorId] = useState('');
  const [chosenBoard, setChosenBoard] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  const visor = visores?.find((item) => item.visor_id === visorId) ?? null;
  const boards = visor ? quoteBoards(visor.secciones) : [];
  const board = boards.find((item) => item.id === chosenBoard) ?? boards[0] ?? null;
  const held = board != null && boardHolds(board, symbol);
  // Just added to this visor: said once, and nothing offered again (until the cache has a new
  // board the visor still reads as having none; once it has the symbol, as holding it).
  const addedHere = notice?.kind === 'done' && notice.visorId === visor?.visor_id;
  const justAdded = addedHere && (board == null || notice.boardId === board.id);

  const add = async (target: AddTarget, boardTitle: string) => {
    if (!visor) return;
    setBusy(true);
    setNotice(null);
    try {
      const result = await addToVisor(save, visor, symbol, target);
      if (result.kind === 'added') {
        const kept = online ? '' : ' Se guardará en el servidor al volver la conexión.';
        setChosenBoard(result.boardId);
        setNotice({
          kind: 'done',
          visorId: visor.visor_id,
          boardId: result.boardId,
          text: `Agregado: ${symbol} está en «${boardTitle}» de «${visor.title}».${kept}`,
        });
      } else {
        setNotice({ kind: 'problem', text: addProblem(result, symbol, boardTitle) ?? '' });
      }
    } catch (error) {
      setNotice({ kind: 'error', text: `No se pudo agregar: ${errorMessage(error)}` });
    } finally {
      setBusy(false);
    }
  };

  const createBoard = () => {
    const size = { w: Math.min(quotesSection.defaultSize.w, GRID_COLUMNS), h: quotesSection.defaultSize.h };
    void add({ kind: 'new-board', board: { id: newSectionId(), title: quotesSection.defaultTitle, size } }, quotesSection.defaultTitle);
  };

  return (
    <section className="search-add" aria-labelledby={headingId}>
      <h3 id={headingId}>Agregar a un visor</h3>
      {visores === undefined && <p className="muted">Cargando sus visores…</p>}
      {visores != null && visores.length === 0 && <p className="muted">Todavía no tiene visores: cree uno desde el menú lateral para agregarle símbolos.</p>}
      {visores != null && visores.length > 0 && (
        <div className="search-add__fields">
          <div className="search-add__field">
            <label htmlFor={`${headingId}-visor`}>Visor</label>
            <select
              id={`${headingId}-visor`}
              value={visorId}
              onChange={(event) => {
                setVisorId(event.target.value);
                setChosenBoard('');
                setNotice(null);
              }}
            >
              <option value="" disabled>
                Elija un visor…
              </option>
              {visores.map((item) => (
                <option key={item.visor_id} value={item.visor_id}>
                  {item.title}
                </option>
              ))}
            </select>
          </div>
          {board && (
            <div className="search-add__field">
              <label htmlFor={`${headingId}-board`}>Tabla</label>
              <select
                id={`${headingId}-board`}
                value={board.id}
                onChange={(event) => {
                  setChosenBoard(event.target.value);
                  setNotice(null);
                }}
              >
                {boards.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.title} ({item.rows === 1 ? '1 fila' : `${item.rows} filas`})
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
      )}
      {visor && !board && !addedHere && (
        <div className="search-add__row">
          <p className="muted">«{visor.title}» no tiene una tabla de cotizaciones.</p>
          <button type="button" className="button button--primary" disabled={busy} onClick={createBoard}>
            {busy ? 'Creando…' : `Crear una tabla con ${symbol}`}
          </button>
        </div>
      )}
      {visor && board && !justAdded && held && (
        <p className="search-add__held" role="status">
          {symbol} ya está en «{board.title}».
        </p>
      )}
      {visor && board && !held && (
        <div className="search-add__row">
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void add({ kind: 'board', boardId: board.id }, board.title)}>
            {busy ? 'Agregando…' : `Agregar a «${board.title}»`}
          </button>
        </div>
      )}
      {notice?.kind === 'done' && (
        <p className="search-add__done" role="status">
          {notice.text} <Link to={paths['visor-modo-edicion'](notice.visorId)}>Abrir el visor</Link>
        </p>
      )}
      {notice?.kind === 'problem' && (
        <p className="search-add__held" role="status">
          {notice.text}
        </p>
      )}
      {notice?.kind === 'error' && (
        <p className="form-error" role="alert">
          {notice.text}
        </p>
      )}
    </section>
  );
}
