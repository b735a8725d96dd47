// Usuarios (`/users`, admin): every account in a table (@tanstack/react-table) with a search
// over username and names, sorting by any column and pages of PAGE_SIZE; Nuevo usuario and
// Editar open the Usuario modal (UserModal), Eliminar asks the spec's delete confirmation.
import { useQuery } from '@tanstack/react-query';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type FilterFn,
  type SortingState,
} from '@tanstack/react-table';
import { useId, useMemo, useState } from 'react';
import { ApiError } from '../../data/api';
import { formatMarketDateTime } from '../../lib/numberFormat';
import { userMatches } from '../../lib/userSearch';
import { adminQueries, useDeleteUserMutation } from '../../data/queries/admin';
import type { AdminUser } from '../../protocol/admin';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { showToast } from '../../ui/toast';
import { useCurrentUser } from '../auth/useCurrentUser';
import { AdminEmpty, AdminPage } from './AdminPage';
import { UserModal, type UserModalRequest } from './UserModal';
import './adminParts.css';
import './users.css';
import { useNeedsServerReason } from '../../data/offline';

export const USERS_PAGE_SIZE = 10;

const dateOf = (iso: string | null) => (iso == null ? null : new Date(iso));

function When({ iso, never }: { iso: string | null; never: string }) {
  const date = dateOf(iso);
  if (date == null || Number.isNaN(date.getTime())) return <span className="users-muted">{never}</span>;
  return <time dateTime={date.toISOString()}>{formatMarketDateTime(date.getTime())}</time>;
}

const matchesUser: FilterFn<AdminUser> = (row, _columnId, value: string) => userMatches(row.original, value);

const column = createColumnHelper<AdminUser>();

const ROLE_TEXT = { admin: 'Administrador', user: 'Usuario' } as const;

export function UsersPage() {
  // Every action here asks the server (issue 21: off, saying why, while it cannot be reached).
  const offline = useNeedsServerReason();
  const me = useCurrentUser();
  const users = useQuery(adminQueries.users());
  const remove = useDeleteUserMutation();
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<SortingState>([{ id: 'username', desc: false }]);
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: USERS_PAGE_SIZE });
  const [modal, setModal] = useState<UserModalRequest | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const searchId = useId();

  const columns = useMemo(
    () => [
      column.accessor('username', { header: 'Usuario', cell: (info) => <strong>{info.getValue()}</strong> }),
      column.accessor('firstName', { header: 'Nombre' }),
      column.accessor('lastName', { header: 'Apellido' }),
      column.accessor('role', {
        header: 'Rol',
        cell: (info) => <span className={`users-badge users-badge--${info.getValue()}`}>{ROLE_TEXT[info.getValue()]}</span>,
      }),
      column.accessor((user) => !user.disabled, {
        id: 'active',
        header: 'Activo',
        cell: (info) => (info.getValue() ? <span className="users-badge users-badge--on">Sí</span> : <span className="users-badge users-badge--off">No</span>),
      }),
      // Never signed in is undefined, which sorts last whichever the direction.
      column.accessor((user) => user.last_login_at ?? undefined, {
        id: 'last_login_at',
        header: 'Último ingreso',
        sortingFn: 'datetime',
        sortDescFirst: true,
        sortUndefined: 'last',
        cell: (info) => <When iso={info.getValue() ?? null} never="Nunca" />,
      }),
      column.accessor('created_at', { header: 'Creado', sortingFn: 'datetime', sortDescFirst: true, cell: (info) => <When iso={info.getValue()} never="—" /> }),
      column.display({
        id: 'actions',
        header: () => <span className="visually-hidden">Acciones</span>,
        cell: ({ row }) => (
          <div className="users-actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => setModal({ mode: 'edit', user: row.original })}
              aria-label={`Editar ${row.original.username}`}
              disabled={offline != null}
              title={offline ?? undefined}
            >
              Editar
            </button>
            <button
              type="button"
              className="button button--small button--danger-outline"
              onClick={() => setDeleting(row.original)}
              aria-label={`Eliminar ${row.original.username}`}
              disabled={offline != null}
              title={offline ?? undefined}
            >
              Eliminar
            </button>
          </div>
        ),
      }),
    ],
    [offline],
  );

  // ISO times sort as text in time order ('datetime' compares them with < and >).
  const data = useMemo(() => users.data ?? [], [users.data]);
  // The app is not built with the React Compiler; the table's functions are read fresh on every render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data,
    columns,
    state: { sorting, globalFilter: search, pagination },
    onSortingChange: setSorting,
    onGlobalFilterChange: setSearch,
    onPaginationChange: setPagination,
    globalFilterFn: matchesUser,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    getRowId: (user) => user._id,
    autoResetPageIndex: false,
  });

  const confirmDelete = () => {
    const user = deleting;
    setDeleting(null);
    if (!user) return;
    remove.mutate(user._id, {
      onSuccess: () => showToast(`Usuario ${user.username} eliminado`, 'success'),
      onError: (error) => showToast(error instanceof ApiError ? error.message : String(error), 'error'),
    });
  };

  const total = users.data?.length ?? 0;
  const matching = table.getFilteredRowModel().rows.length;
  const pageCount = Math.max(1, table.getPageCount());
  const page = Math.min(pagination.pageIndex, pageCount - 1) + 1;
  const first = matching === 0 ? 0 : (page - 1) * pagination.pageSize + 1;
  const last = Math.min(matching, page * pagination.pageSize);

  return (
    <AdminPage
      title="Usuarios"
      lead="Las cuentas que pueden entrar a Visores: su rol, si están activas y cuándo entraron por última vez."
      actions={
        <button
          type="button"
          className="button button--primary"
          onClick={() => setModal({ mode: 'create' })}
          disabled={offline != null}
          title={offline ?? undefined}
        >
          Nuevo usuario
        </button>
      }
    >
      <div className="users-toolbar">
        <label htmlFor={searchId} className="visually-hidden">
          Buscar usuarios
        </label>
        <input
          id={searchId}
          type="search"
          className="users-search"
          placeholder="Buscar por usuario, nombre o apellido"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPagination((current) => ({ ...current, pageIndex: 0 }));
          }}
        />
        <span className="users-count" role="status">
          {search.trim() === '' ? `${total} usuarios` : `${matching} de ${total} usuarios`}
        </span>
      </div>
      {users.isPending ? (
        <p className="users-muted">Cargando usuarios…</p>
      ) : users.isError ? (
        <p className="form-error" role="alert">
          {users.error instanceof ApiError ? users.error.message : 'No se pudieron leer los usuarios'}
        </p>
      ) : matching === 0 ? (
        <AdminEmpty title={total === 0 ? 'No hay usuarios' : 'Ningún usuario coincide con la búsqueda'}>
          {total === 0 ? 'Cree el primero con Nuevo usuario.' : 'Pruebe con otro texto.'}
        </AdminEmpty>
      ) : (
        <div className="users-table-wrap">
          <table className="users-table" aria-label="Usuarios">
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    const canSort = header.column.getCanSort();
                    const label = flexRender(header.column.columnDef.header, header.getContext());
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                        data-column={header.column.id}
                      >
                        {canSort ? (
                          <button type="button" className="users-sort" onClick={header.column.getToggleSortingHandler()}>
                            {label}
                            <span className="users-sort__mark" aria-hidden="true">
                              {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                            </span>
                          </button>
                        ) : (
                          label
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.map((row) => (
                <tr
                  key={row.id}
                  data-username={row.original.username}
                  data-disabled={row.original.disabled}
                  aria-current={row.original._id === me._id ? 'true' : undefined}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} data-column={cell.column.id}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {matching > 0 && (
        <nav className="users-pager" aria-label="Páginas de usuarios">
          <span role="status">
            {first}–{last} de {matching} · Página {page} de {pageCount}
          </span>
          <button type="button" className="button button--small" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
            Anterior
          </button>
          <button type="button" className="button button--small" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
            Siguiente
          </button>
        </nav>
      )}
      <UserModal request={modal} onClose={() => setModal(null)} />
      {/* Off while the server cannot be reached, also when the network goes with it open (issue 21). */}
      <ConfirmDialog open={deleting != null} onConfirm={confirmDelete} onCancel={() => setDeleting(null)} disabledReason={offline} />
    </AdminPage>
  );
}
