import { ExpressionError, type Token, tokenize } from "./lexer";

export type FunctionName = "round" | "ceil" | "floor" | "least" | "greatest" | "concat";

/** Syntax tree of a metric expression. */
export type Expression =
  | { type: "number"; value: string }
  | { type: "string"; value: string }
  | { type: "variable"; path: "code" | "timestamp" | "property"; name: string }
  | { type: "negate"; operand: Expression }
  | { type: "binary"; op: "+" | "-" | "*" | "/"; left: Expression; right: Expression }
  | { type: "call"; name: FunctionName; args: Expression[] };

const FUNCTIONS: readonly FunctionName[] = ["round", "ceil", "floor", "least", "greatest", "concat"];

/** Function names are accepted in three spellings only: round, ROUND, Round. */
function functionName(text: string): FunctionName | null {
  const lower = text.toLowerCase() as FunctionName;
  if (!FUNCTIONS.includes(lower)) return null;
  const capitalized = lower[0]!.toUpperCase() + lower.slice(1);
  return text === lower || text === lower.toUpperCase() || text === capitalized ? lower : null;
}

function variable(text: string): Expression {
  if (text === "event.code") return { type: "variable", path: "code", name: "code" };
  if (text === "event.timestamp") return { type: "variable", path: "timestamp", name: "timestamp" };
  const match = /^event\.properties\.([A-Za-z0-9_]+)$/.exec(text);
  if (!match) throw new ExpressionError(`Unknown variable: ${text}`);
  return { type: "variable", path: "property", name: match[1]! };
}

/** Parses an expression with a small recursive-descent parser (no eval, no Function). */
export function parseExpression(source: string): Expression {
  const tokens = tokenize(source);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isOp = (text: string) => peek()?.kind === "op" && peek()!.text === text;
  const expect = (text: string) => {
    if (!isOp(text)) throw new ExpressionError(`Expected '${text}' at token ${position + 1}`);
    position++;
  };

  function sum(): Expression {
    let left = product();
    while (isOp("+") || isOp("-")) {
      const op = tokens[position++]!.text as "+" | "-";
      left = { type: "binary", op, left, right: product() };
    }
    return left;
  }

  function product(): Expression {
    let left = unary();
    while (isOp("*") || isOp("/")) {
      const op = tokens[position++]!.text as "*" | "/";
      left = { type: "binary", op, left, right: unary() };
    }
    return left;
  }

  function unary(): Expression {
    if (isOp("-")) {
      position++;
      return { type: "negate", operand: unary() };
    }
    return primary();
  }

  function primary(): Expression {
    const token = tokens[position++];
    if (!token) throw new ExpressionError("Unexpected end of expression");
    if (token.kind === "number") return { type: "number", value: token.text };
    if (token.kind === "string") return { type: "string", value: token.text };
    if (token.kind === "op" && token.text === "(") {
      const inner = sum();
      expect(")");
      return inner;
    }
    if (token.kind === "name") {
      if (!isOp("(")) return variable(token.text);
      const name = functionName(token.text);
      if (!name) throw new ExpressionError(`Unknown function: ${token.text}`);
      position++;
      const args: Expression[] = [];
      if (!isOp(")")) {
        args.push(sum());
        while (isOp(",")) (position++, args.push(sum()));
      }
      expect(")");
      return { type: "call", name, args };
    }
    throw new ExpressionError(`Unexpected '${token.text}' at token ${position}`);
  }

  const tree = sum();
  if (position < tokens.length) throw new ExpressionError(`Unexpected '${peek()!.text}' at token ${position + 1}`);
  return tree;
}
