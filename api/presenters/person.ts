// The person object both APIs answer for an owner or an author: self, first_name, last_name, display_name.
export interface PersonNames {
  uuid: string;
  first_name: string | null;
  last_name: string | null;
}

export function presentPerson(person: PersonNames, callerUuid: string) {
  const first = person.first_name ?? null;
  const last = person.last_name ?? null;
  const display = [first, last].filter(Boolean).join(' ');
  return {
    self: person.uuid === callerUuid,
    first_name: first,
    last_name: last,
    display_name: display || null,
  };
}
