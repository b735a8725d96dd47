import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../lib/paths';
import { Icon } from '../ui/Icon';

/** The header's search overlay: Escape or the close button closes it; submitting goes to the search route. */
export function SearchOverlay({ onClose }: { onClose: () => void }) {
  const [text, setText] = useState('');
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    if (!query) return;
    onClose();
    navigate(paths.search(query));
  };
  return (
    <div className="search-overlay" role="search">
      <form onSubmit={submit} className="search-overlay__form">
        <Icon name="search" />
        <input ref={input} type="search" aria-label="Buscar" placeholder="Search or hit ESC.." value={text} onChange={(event) => setText(event.target.value)} />
        <button type="button" className="icon-button" onClick={onClose} aria-label="Cerrar búsqueda">
          <Icon name="close" />
        </button>
      </form>
    </div>
  );
}
