// The Usuarios page's search (issue 20): a text matches an account when its username, first
// name, last name or full name contains it, ignoring case, accents and surrounding blanks.

export interface SearchableUser {
  username: string;
  firstName: string;
  lastName: string;
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export function userMatches(user: SearchableUser, text: string): boolean {
  const needle = fold(text.trim());
  if (needle === '') return true;
  return [user.username, user.firstName, user.lastName, `${user.firstName} ${user.lastName}`].some((field) => fold(field).includes(needle));
}
