/** Tokens of a metric expression (lago-expression grammar). */
export type Token =
  | { kind: "number"; text: string }
  | { kind: "string"; text: string }
  | { kind: "name"; text: string }
  | { kind: "op"; text: "+" | "-" | "*" | "/" | "(" | ")" | "," };

export class ExpressionError extends Error {
  override name = "ExpressionError";
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*/y;
const NUMBER = /\d+(\.\d+)?|\.\d+/y;

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if ("+-*/(),".includes(c)) {
      tokens.push({ kind: "op", text: c as "+" });
      i++;
    } else if (c === "'") {
      const end = source.indexOf("'", i + 1);
      if (end === -1) throw new ExpressionError(`Unterminated string at position ${i}`);
      tokens.push({ kind: "string", text: source.slice(i + 1, end) });
      i = end + 1;
    } else {
      const match = matchAt(NUMBER, source, i) ?? matchAt(NAME, source, i);
      if (!match) throw new ExpressionError(`Unexpected character '${c}' at position ${i}`);
      tokens.push({ kind: /^[\d.]/.test(match) ? "number" : "name", text: match });
      i += match.length;
    }
  }
  return tokens;
}

function matchAt(pattern: RegExp, source: string, index: number): string | null {
  pattern.lastIndex = index;
  return pattern.exec(source)?.[0] ?? null;
}
