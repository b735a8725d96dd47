// An emoji shown as the picker shows it: the 64 px Apple image from our own server, drawn at
// the size of the text; the character itself when there is no image for it.
import { useState } from 'react';
import { imageNamesOf } from '../lib/emojiText';

export function emojiImageUrl(unified: string): string {
  return `/emoji/apple/64/${unified}.png`;
}

export function Emoji({ emoji, className }: { emoji: string; className?: string }) {
  const names = imageNamesOf(emoji);
  const [attempt, setAttempt] = useState(0);
  const [forEmoji, setForEmoji] = useState(emoji);
  if (forEmoji !== emoji) {
    setForEmoji(emoji);
    setAttempt(0);
  }
  if (!emoji) return null;
  const name = names[attempt];
  if (name === undefined) return <span className={`emoji emoji--text ${className ?? ''}`}>{emoji}</span>;
  return (
    <img className={`emoji ${className ?? ''}`} src={emojiImageUrl(name)} alt={emoji} draggable={false} onError={() => setAttempt((value) => value + 1)} />
  );
}
