/** Lago's document prefix: the first three letters of the name and the last four of the id, upper-cased. */
export function documentNumberPrefix(name: string, id: string): string {
  const letters = name
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 3)
    .toUpperCase()
    .padEnd(3, "X");
  return `${letters}-${id.replace(/-/g, "").slice(-4).toUpperCase()}`;
}
